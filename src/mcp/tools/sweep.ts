/**
 * Sweeps over MCP: `sweep_plan` (read: what collecting USDT from a range of the server's HD deposit
 * addresses into a treasury needs and costs, renting against burning; spends nothing) and `sweep`
 * (the sweep itself, under the spending guard: --allow-spend, --max-order-trx per call, the session
 * cap, the user's confirmation naming the whole cost; the run is held to the confirmed cost). The
 * deposit keys come from the server's `--sweep-mnemonic-file`, the activations are paid by its
 * TRON wallet; neither is ever shown. Journaled in the server's private folder, keyed by the
 * sweep, so a retried call resumes it and never sweeps or activates twice.
 * @module
 */
import * as z from 'zod';
import { TrxRentError } from '../../errors/index.js';
import { sunToTrx } from '../../utils/units.js';
import type { SweepPlan, SweepReport } from '../../workflows/sweep/types.js';
import type { Known } from '../outcome.js';
import type { Session } from '../session.js';
import { tool } from '../tool.js';
import { stateDir } from './payouts.js';

const SweepInput = z.strictObject({
  to: z.string().min(1),
  hd_from: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  hd_count: z.number().int().min(1).max(5_000),
  account: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  min: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, 'a decimal amount, like 10 or 0.5')
    .optional(),
  token: z.enum(['USDT', 'USDC']).optional(),
  duration_sec: z.number().int().positive().optional(),
});

const PlanOutput = z.looseObject({
  key: z.string(),
  to: z.string(),
  sources: z.number(),
  to_sweep: z.number(),
  below_min: z.number(),
  to_activate: z.number(),
  total: z.string(),
  orders: z.number(),
  order_note: z.string(),
  rent_cost_sun: z.number(),
  activation_cost_sun: z.number(),
  total_cost_sun: z.number(),
  burn_cost_sun: z.number(),
  saving_sun: z.number(),
});

const ReportOutput = z.looseObject({
  key: z.string(),
  complete: z.boolean(),
  swept: z.number(),
  failed: z.number(),
  pending: z.number(),
  total_swept: z.string(),
  total_cost_sun: z.number(),
  rows: z.array(z.looseObject({ address: z.string(), status: z.string(), amount: z.string(), tx_id: z.string().optional() })),
});

const FIELDS = {
  to: 'The treasury (base58 T…) that receives every swept balance',
  hd_from: "First index of the server's HD deposit addresses m/44'/195'/account'/0/index (default 0)",
  hd_count: 'How many consecutive deposit addresses to read (1 to 5000)',
  account: 'The HD account (default 0)',
  min: 'Sweep only addresses holding at least this much (decimal token units; default 1)',
  token: 'USDT (default) or USDC',
  duration_sec: 'Rental duration of each energy order in seconds (default 3600)',
};

/** The sweep object over the session's client: the HD keys, the funding wallet, a journal in the server's private folder. */
async function sweepRun(session: Session, args: z.output<typeof SweepInput>, signal: AbortSignal, maxCostSun?: number) {
  const mnemonic = session.options.sweepMnemonic;
  if (!mnemonic)
    throw new TrxRentError({
      code: 'NO_WALLET',
      message: 'No HD wallet to sweep: the user can restart the server with --sweep-mnemonic-file FILE; nothing was read or sent.',
    });
  const [{ createHash }, { join }, { deriveKeys }, { sweepKeyOf }] = await Promise.all([
    import('node:crypto'),
    import('node:path'),
    import('../../protocol/hd-keys.js'),
    import('../../workflows/sweep/plan.js'),
  ]);
  const keys = await deriveKeys({ mnemonic, account: args.account ?? 0, from: args.hd_from ?? 0, count: args.hd_count });
  const dir = join(await stateDir(session), 'sweeps');
  await (await import('../../store/file.js')).privateDir(dir);
  const node = await session.api.chain.node();
  const place = createHash('sha256').update(`${session.api.http.baseUrl} ${node.baseUrl}`).digest('hex').slice(0, 8);
  const { key } = sweepKeyOf(
    args.to,
    args.token ?? 'USDT',
    keys.map((k) => k.address),
  );
  const funding = session.options.wallet?.tron ? { privateKey: session.options.wallet.tron } : undefined;
  const options = { to: args.to, min: args.min ?? '1', token: args.token, duration: args.duration_sec, funding, signal, maxCostSun };
  return { keys, journal: join(dir, `${key}-${place}.journal`), options };
}

/** What a sweep's report says it spent: TRX for rental and activation (the tokens stay the user's: deposit to treasury). */
function verdict(r: SweepReport): Known {
  const what = `sweep ${r.key}: ${r.swept} swept (${r.total_swept}), ${r.failed} failed, ${r.pending} pending; cost ${sunToTrx(r.total_cost_sun)} TRX`;
  if (r.pending > 0) return { outcomes: { TRX: { state: 'pending' } }, what, ids: { sweep_key: r.key } };
  return { outcomes: { TRX: r.total_cost_sun > 0 ? { state: 'spent', atomic: BigInt(r.total_cost_sun) } : { state: 'none' } }, what };
}

export const SWEEP_TOOLS = [
  tool({
    name: 'sweep_plan',
    title: 'Plan a sweep of deposit addresses',
    description:
      "What collecting USDT (or USDC) from a range of the server's HD deposit addresses into a treasury would need and cost, without spending: each address's balance and account read on " +
      'the TRON node, those holding at least min kept, which must be activated first (a TRC-20 receipt creates no account), the energy each sweep needs, one energy order per address ' +
      '(an order has one target) and the cost against burning TRX at each address. All costs in SUN (1 TRX = 1,000,000 SUN).',
    access: 'read',
    input: SweepInput,
    output: PlanOutput,
    fields: FIELDS,
    async run(args, { session, signal }) {
      const { keys, options } = await sweepRun(session, args, signal);
      const plan = await session.api.transfers.sweepPlan(keys, options);
      const { rows: _rows, ...rest } = plan;
      return rest;
    },
  }),
  tool({
    name: 'sweep',
    title: 'Sweep deposit addresses into a treasury with rented energy',
    description:
      "Collect USDT (or USDC) from a range of the server's HD deposit addresses into a treasury: plans as sweep_plan does, activates the addresses that need it from the server's TRON wallet, " +
      "rents each one's energy, and sends each balance to the treasury once. SPENDS TRX (rental and activation, capped by --max-order-trx and the session cap); needs --allow-spend and the " +
      "user's confirmation, which names the whole cost; the run spends at most that. Journaled: calling again with the same range resumes it and never sweeps or activates twice.",
    access: 'spend',
    input: SweepInput,
    output: ReportOutput,
    fields: FIELDS,
    async run(args, { session, signal, ask }) {
      // The plan of what is left: a sweep this range started before resumes from its journal.
      const planned = await sweepRun(session, args, signal);
      const planning = await session.api.transfers.sweepRun(planned.keys, { ...planned.options, journal: planned.journal });
      let plan: SweepPlan;
      try {
        plan = await planning.plan();
      } finally {
        await planning.close();
      }
      const { limits } = session.guard;
      const summary =
        `Sweep ${plan.to_sweep} of ${plan.sources} deposit addresses (${plan.total} ${plan.token.symbol ?? plan.token.address}) into ${plan.to}: ${plan.orders} energy order(s) for ` +
        `${sunToTrx(plan.rent_cost_sun)} TRX and ${plan.to_activate} activation(s) for ${sunToTrx(plan.activation_cost_sun)} TRX (burning instead: ${sunToTrx(plan.burn_cost_sun)} TRX)`;
      const cost = plan.total_cost_sun;
      // The run is held to what this confirmation approved, on top of what was spent before.
      const cap = (plan.resume?.spent_sun ?? 0) + cost;
      const run = async () => {
        const { keys, journal, options } = await sweepRun(session, args, signal, cap);
        return session.api.transfers.sweep(keys, { ...options, journal });
      };
      return session.guard.spend(
        {
          tool: 'sweep',
          lines: [{ currency: 'TRX', atomic: BigInt(cost), cap: { atomic: limits.maxOrderSun, flag: '--max-order-trx', off: 'orders are off' } }],
          summary,
        },
        ask,
        {
          run,
          done: (r) => verdict(r),
          failed: () => ({ outcomes: { TRX: { state: 'pending' } }, what: 'the sweep stopped; its journal says what was spent' }),
          // A lookup reads the sweep's journal; it orders, activates and signs nothing.
          lookup: async (_key, lookupSignal) => {
            const { keys, journal, options } = await sweepRun(session, args, lookupSignal);
            const r = await session.api.transfers.sweepRun(keys, { ...options, journal });
            try {
              await r.plan();
              return verdict(await r.report());
            } finally {
              await r.close();
            }
          },
        },
      );
    },
  }),
];
