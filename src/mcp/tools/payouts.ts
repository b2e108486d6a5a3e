/**
 * Payouts over MCP: `send_batch_plan` (read: what a batch of USDT payouts from the server's
 * TRON wallet needs and costs, renting against burning; spends nothing) and `send_batch` (the
 * batch itself, under the same guard as the other spending tools: --allow-spend, the per-call
 * caps, the session cap, the user's confirmation naming the whole batch's cost, its worst-case
 * burn reserved too). The batch is journaled to a file keyed by its rows in the server's private
 * folder, so a retried call with the same rows resumes it and never pays a row twice.
 * @module
 */
import * as z from 'zod';
import { TrxRentError } from '../../errors/index.js';
import { decimalToAtomic, sunToTrx } from '../../utils/units.js';
import { tool } from '../tool.js';
import { MULTISIG_FIELDS, walletSigning } from './chain.js';
import type { Session } from '../session.js';
import type { Known } from '../outcome.js';
import type { PayoutReport } from '../../workflows/payouts/types.js';

const Row = z.strictObject({
  to: z.string().min(1),
  amount: z.string().regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal amount with at most 6 decimal places, like 10 or 0.5'),
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,40}$/)
    .optional(),
});

const BatchInput = z.strictObject({
  payouts: z.array(Row).min(1).max(2_000),
  token: z.enum(['USDT', 'USDC']).optional(),
  duration_sec: z.number().int().positive().optional(),
  from: z.string().min(1).optional(),
  permission_id: z.number().int().min(0).max(9).optional(),
});

const PlanOutput = z.looseObject({
  batch_key: z.string(),
  from: z.string(),
  rows: z.number(),
  energy: z.looseObject({ needed: z.number(), with_margin: z.number(), to_rent: z.number() }),
  orders: z.array(z.looseObject({ resource: z.string(), amount: z.number(), cost_sun: z.number() })),
  rent_cost_sun: z.number(),
  burn_cost_sun: z.number(),
  single_sends_cost_sun: z.number(),
  saving_sun: z.number(),
});

const ReportOutput = z.looseObject({
  batch_key: z.string(),
  complete: z.boolean(),
  confirmed: z.number(),
  failed: z.number(),
  pending: z.number(),
  rows: z.array(z.looseObject({ id: z.string(), to: z.string(), amount: z.string(), status: z.string(), tx_id: z.string().optional() })),
  rent_cost_sun: z.number(),
  total_cost_sun: z.number(),
  burn_cost_sun: z.number(),
  saving_sun: z.number(),
});

const FIELDS = {
  payouts: 'The rows: { to (base58 T…), amount (token units as a decimal string, e.g. "10"), id (optional; your id for the row, its idempotency key) }',
  token: 'USDT (default) or USDC',
  duration_sec: 'Rental duration of the energy in seconds (default 3600)',
  ...MULTISIG_FIELDS,
};

/** The server wallet's key, or NO_WALLET. */
function walletKey(session: Session): string {
  const privateKey = session.options.wallet?.tron;
  if (!privateKey)
    throw new TrxRentError({
      code: 'NO_WALLET',
      message: 'No TRON wallet: the user can set TRX_RENT_X402_TRON_KEY (or pass --key-file) and restart the server; nothing was sent.',
    });
  return privateKey;
}

/** The server's private folder for journals (see `stateDir`). */
export async function stateDir(session: Session): Promise<string> {
  const [{ homedir }, { join }, { privateDir }] = await Promise.all([import('node:os'), import('node:path'), import('../../store/file.js')]);
  return privateDir(session.options.stateDir ?? join(homedir(), '.trx-rent', 'mcp'));
}

/** The batch object over the session's client, journaled in the server's private folder. */
async function batchRun(session: Session, args: z.output<typeof BatchInput>, signal: AbortSignal, maxCostSun?: number) {
  const privateKey = walletKey(session);
  const [{ createHash }, { join }, { batchKeyOf, checkPayouts }, tx] = await Promise.all([
    import('node:crypto'),
    import('node:path'),
    import('../../workflows/payouts/index.js'),
    import('../../protocol/tron-transaction.js'),
  ]);
  const signing = await walletSigning(session, privateKey, args, signal);
  const from = 'from' in signing ? signing.from : tx.privateKeyToTronAddress(privateKey);
  const rows = checkPayouts(args.payouts, { token: args.token, from });
  const dir = join(await stateDir(session), 'payouts');
  await (await import('../../store/file.js')).privateDir(dir);
  // One journal per batch and per service and node: the same rows on another chain are another batch.
  const node = await session.api.chain.node();
  const place = createHash('sha256').update(`${session.api.http.baseUrl} ${node.baseUrl}`).digest('hex').slice(0, 8);
  const journal = join(dir, `${batchKeyOf(from, rows).key}-${place}.journal`);
  const rowTimeoutMs = session.options.sendTimeoutMs;
  return session.api.transfers.batch(args.payouts, { ...signing, token: args.token, duration: args.duration_sec, journal, signal, maxCostSun, rowTimeoutMs });
}

/** What a batch's report says it spent: the confirmed rows' tokens and its cost in TRX; unknown while a row is pending. */
function verdict(r: PayoutReport): Known {
  const what = `batch ${r.batch_key}: ${r.confirmed} confirmed, ${r.failed} failed, ${r.pending} pending; cost ${sunToTrx(r.total_cost_sun)} TRX, burning would have cost ${sunToTrx(r.burn_cost_sun)} TRX`;
  if (r.pending > 0) return { outcomes: { USDT: { state: 'pending' }, TRX: { state: 'pending' } }, what, ids: { batch_key: r.batch_key } };
  const sent = r.rows.filter((row) => row.status === 'confirmed').reduce((sum, row) => sum + decimalToAtomic(row.amount, 6, 'amount'), 0n);
  return {
    outcomes: { USDT: sent > 0n ? { state: 'spent', atomic: sent } : { state: 'none' }, TRX: { state: 'spent', atomic: BigInt(r.total_cost_sun) } },
    what,
  };
}

export const PAYOUT_TOOLS = [
  tool({
    name: 'send_batch_plan',
    title: 'Plan a batch of USDT payouts',
    description:
      "What sending USDT (or USDC) to many recipients from the server's TRON wallet would need and cost, without spending: every row checked (address, amount, decimals, duplicates) " +
      'and estimated on the TRON node (about 65000 energy to a holder, 130000 to an empty address), the energy and bandwidth rented for the whole batch with a 10 % margin in as few ' +
      'orders as the providers allow, and what that costs against burning TRX and against one send per row. All costs in SUN (1 TRX = 1,000,000 SUN).',
    access: 'read',
    input: BatchInput,
    output: PlanOutput,
    fields: FIELDS,
    async run(args, { session, signal }) {
      const run = await batchRun(session, args, signal);
      try {
        const plan = await run.plan();
        return { ...plan, orders: plan.orders.map((o) => ({ ...o })) };
      } finally {
        await run.close();
      }
    },
  }),
  tool({
    name: 'send_batch',
    title: 'Send a batch of USDT payouts with one rental',
    description:
      "Send USDT (or USDC) to many recipients from the server's TRON wallet with one rental: plans as send_batch_plan does, then rents the batch's energy, signs and broadcasts every row " +
      'and waits for the receipts. SPENDS MONEY twice: the tokens (their total capped per call by --max-withdrawal, off when unset, and by the session cap) and the rental in TRX ' +
      "(capped by --max-order-trx and the session cap); needs --allow-spend and the user's confirmation, which names the whole batch's cost. Journaled: calling again with the same rows " +
      'resumes the batch and never pays a row twice. Returns the report: per row its status and tx_id, and the costs in SUN against burning.',
    access: 'spend',
    input: BatchInput,
    output: ReportOutput,
    fields: FIELDS,
    async run(args, { session, signal, ask }) {
      const planning = await batchRun(session, args, signal);
      let plan: Awaited<ReturnType<typeof planning.plan>>;
      try {
        plan = await planning.plan();
      } finally {
        await planning.close();
      }
      const { limits } = session.guard;
      const symbol = args.token ?? 'USDT';
      const total = plan.totals.find((t) => t.token === symbol)?.amount ?? '0';
      // The rental approved (with what was spent before, on a resume): top-ups beyond it are refused, not paid.
      const rental = (plan.resume?.spent_sun ?? 0) + plan.rent_cost_sun + plan.deferred_cost_sun;
      // Reserved against the caps: the rental and the most the rows could burn if the rented
      // energy is not there when they run (a node that overstates the sender's energy).
      const worst = plan.rent_cost_sun + plan.deferred_cost_sun + plan.worst_burn_sun;
      const summary =
        `Pay ${plan.rows} rows, ${total} ${symbol} in all, from ${plan.from}: renting ${plan.energy.to_rent} energy in ${plan.orders.length} order(s) for ${sunToTrx(plan.rent_cost_sun)} TRX, ` +
        `at most ${sunToTrx(worst)} TRX with what the rows could burn (burning instead: ${sunToTrx(plan.burn_cost_sun)} TRX; one by one: ${sunToTrx(plan.single_sends_cost_sun)} TRX)`;
      const send = async () => (await batchRun(session, args, signal, rental)).start();
      const tokens = decimalToAtomic(total, 6, 'amount');
      return session.guard.spend(
        {
          tool: 'send_batch',
          lines: [
            {
              currency: 'USDT',
              atomic: tokens,
              cap: {
                atomic: limits.maxWithdrawalAtomic,
                flag: '--max-withdrawal',
                off: 'token sends are off: the user can restart the server with --max-withdrawal AMOUNT; nothing was sent',
              },
            },
            { currency: 'TRX', atomic: BigInt(worst), cap: { atomic: limits.maxOrderSun, flag: '--max-order-trx', off: 'orders are off' } },
          ],
          summary,
        },
        ask,
        {
          run: send,
          done: (r) => verdict(r),
          // Whatever failed after the batch started, its journal knows what went out: reserved until looked up.
          failed: () => ({
            outcomes: { USDT: { state: 'pending' }, TRX: { state: 'pending' } },
            what: 'the batch stopped; its journal says which rows went out',
          }),
          // A lookup reads the batch's journal and asks the node about its pending rows; it signs and orders nothing.
          lookup: async (_key, lookupSignal) => {
            const run = await batchRun(session, args, lookupSignal);
            try {
              await run.plan();
              const report = await run.report();
              for (const row of report.rows) {
                if (row.status !== 'pending' || !row.tx_id) continue;
                const status = await session.api.transfers.status(row.tx_id, { signal: lookupSignal }).catch(() => undefined);
                if (status?.state === 'confirmed' || status?.state === 'failed') {
                  row.status = status.state;
                  report.pending--;
                  report[status.state]++;
                }
              }
              return verdict(report);
            } finally {
              await run.close();
            }
          },
        },
      );
    },
  }),
];
