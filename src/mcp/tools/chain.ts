/**
 * Renting exactly what a transfer needs: ensure_resources (buys only an address's energy or
 * bandwidth deficit) and send_token (a TRC-20 transfer from the server's TRON wallet with its
 * energy rented, not burnt). Both spend under the same guard as create_order and withdraw:
 * --allow-spend, the per-call and session caps, the user's confirmation. The rental is priced
 * first and the order pinned to that cost, so it cannot cost more than what was approved.
 * Each run keeps a journal (`../effects.ts`: the order requests, the orders, the signed tx id):
 * an unknown outcome is settled by looking those up (`../lookups.ts`), never by running again.
 */
import * as z from 'zod';
import { TrxRentError } from '../../errors/index.js';
import { LIMITS } from '../../schemas/limits.js';
import { EnsureResultSchema, SentTransferSchema } from '../../tron/results.js';
import { decimalToAtomic, sunToTrx } from '../../utils/units.js';
import { Effects } from '../effects.js';
import { chainJob } from '../lookups.js';
import { tool } from '../tool.js';

const Address = z.string().min(1);
const EnsureInput = z.strictObject({
  address: Address,
  energy: z.number().int().min(0),
  bandwidth: z.number().int().min(0).optional(),
  duration_sec: z.number().int().positive().optional(),
});

const SendInput = z.strictObject({
  token: z.string().min(1),
  to: Address,
  amount: z.string().regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal amount with at most 6 decimal places, like 10 or 0.5'),
  duration_sec: z.number().int().positive().optional(),
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ., _ or -')
    .optional(),
  from: Address.optional(),
  permission_id: z.number().int().min(0).max(9).optional(),
});

/** The server wallet's key as the signer: alone (the sender is its address), or as a key of `from`'s permission `permission_id` (a multi-signature account), checked on the chain first. */
export async function walletSigning(
  session: { api: { chain: { node(): Promise<import('../../tron/node.js').TronNode> } } },
  privateKey: string,
  args: { from?: string | undefined; permission_id?: number | undefined },
  signal?: AbortSignal,
) {
  if (args.from === undefined && args.permission_id === undefined) return { signer: { privateKey } };
  const [{ checkedSigners, transferSigners }, { privateKeyToTronAddress }, node] = await Promise.all([
    import('../../tron/account-signers.js'),
    import('../../protocol/tron-transaction.js'),
    session.api.chain.node(),
  ]);
  const signing = { from: args.from ?? privateKeyToTronAddress(privateKey), signers: [{ privateKey }], permissionId: args.permission_id ?? 0 };
  // PERMISSION_DENIED (the permission, the weight missing) before anything is asked, rented or sent.
  await checkedSigners(node, transferSigners(signing), signal);
  return signing;
}

/** What the multi-signature fields of the send tools say. */
export const MULTISIG_FIELDS = {
  from: "A multi-signature account to send from, when the server's wallet key is a key of one of its permissions (default: the wallet's own address)",
  permission_id:
    "The account permission the wallet's key signs under: 0 owner, 2.. an active permission (default 0). Refused (PERMISSION_DENIED) before anything is rented when the key's weight cannot reach the permission's threshold or the permission does not allow TRC-20 transfers",
};

export const CHAIN_TOOLS = [
  tool({
    name: 'ensure_resources',
    title: 'Make sure an address has energy',
    description:
      'Make sure a TRON address can spend `energy` (and optionally `bandwidth`) units: reads what it has on the TRON node, buys only the deficit ' +
      `(rounded up to the provider minimum, ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY), waits until the order is FILLED and the delegation shows on the node. ` +
      'Finding enough already, it buys nothing and spends nothing. A contract (TARGET_IS_CONTRACT) or an address never activated (TARGET_NOT_ACTIVATED: it must receive TRX first) ' +
      "cannot receive a delegation on TRON and is refused before anything is ordered. SPENDS MONEY from the account's TRX balance when it buys: needs --allow-spend, capped per order " +
      '(--max-order-trx) and per session (--session-limit), confirmed by the user where the client can ask. Amounts are resource units (not SUN); duration_sec defaults to 3600. ' +
      'Returns before/after (what the address can spend), the order (or null) and cost_sun (1 TRX = 1,000,000 SUN).',
    access: 'spend',
    input: EnsureInput,
    output: EnsureResultSchema,
    fields: {
      address: 'Base58 TRON address (T…) that must be able to spend the resources',
      energy: 'Energy it must be able to spend, in units (a USDT transfer needs about 65000, or 130000 to an address holding none)',
      bandwidth: 'Bandwidth it must be able to spend, in units (optional)',
      duration_sec: 'Rental duration in seconds (default 3600)',
    },
    async run(args, { session, signal, ask }) {
      const params = { address: args.address, energy: args.energy, bandwidth: args.bandwidth, duration: args.duration_sec, signal };
      const plan = await session.api.chain.plan(params);
      // Nothing to buy now: a cap of 0 keeps it so (a deficit that appeared meanwhile is refused, never bought unguarded).
      if (plan.rentals.length === 0) return session.api.chain.ensure({ ...params, maxCostSun: 0 });
      const what = plan.rentals.map((r) => `${r.amount} ${r.resource}`).join(' and ');
      const summary = `Rent ${what} to ${args.address} for ${args.duration_sec ?? 3600} s (it can spend ${plan.before.energy} energy now): at most ${sunToTrx(plan.cost_sun)} TRX`;
      const { limits } = session.guard;
      const effects = new Effects();
      return session.guard.spend(
        {
          tool: 'ensure_resources',
          lines: [{ currency: 'TRX', atomic: BigInt(plan.cost_sun), cap: { atomic: limits.maxOrderSun, flag: '--max-order-trx', off: 'orders are off' } }],
          summary,
        },
        ask,
        chainJob(
          session.api,
          effects,
          // Pinned to the approved cost: a price that rose meanwhile is refused, not paid. The
          // guard's key rides on the order, so a lost answer is found by it, not bought again.
          (idempotencyKey) => session.api.chain.ensure({ ...params, maxCostSun: plan.cost_sun, idempotencyKey, onProgress: effects.onProgress }),
          (r) => ({
            outcomes: { TRX: { state: 'spent', atomic: BigInt(r.cost_sun) } },
            what: `bought ${r.bought.energy} energy and ${r.bought.bandwidth} bandwidth for ${args.address} for ${sunToTrx(r.cost_sun)} TRX`,
          }),
        ),
      );
    },
  }),
  tool({
    name: 'send_token',
    title: 'Send USDT without burning TRX',
    description:
      "Send a TRC-20 token (USDT, USDC or a contract address) from the server's TRON wallet (the x402 TRON key) to `to`, with the energy rented instead of burnt: " +
      "estimates the energy on the TRON node, rents the deficit (rounded up to 65000) from the account's TRX balance, signs locally, broadcasts through the service and waits for the receipt. " +
      'SPENDS MONEY twice: the tokens sent (capped per call by --max-withdrawal, off when unset, and by the session cap in that currency) and the rental in TRX ' +
      '(capped by --max-order-trx and the session cap); needs --allow-spend and the user\'s confirmation where the client can ask. amount is in token units as a decimal string (e.g. "10"). ' +
      'Pass `id` (your payment id) so that calling again after an unclear answer lands the same transfer instead of paying twice. Returns tx_id, what it cost (SUN) and what burning TRX would have cost (saving_sun).',
    access: 'spend',
    input: SendInput,
    output: SentTransferSchema,
    fields: {
      token: 'USDT (default choice), USDC, or a TRC-20 contract address',
      to: 'Base58 TRON address (T…) of the recipient',
      amount: 'Amount in token units as a decimal string, e.g. "10" (not atomic units)',
      duration_sec: 'Rental duration of the energy in seconds (default 3600)',
      id: "Your id for this payment (an invoice or payout id): a call again with the same id lands the first call's transfer and never pays twice. Without it every call is a new payment",
      ...MULTISIG_FIELDS,
    },
    async run(args, { session, signal, ask }) {
      const privateKey = session.options.wallet?.tron;
      if (!privateKey) {
        throw new TrxRentError({
          code: 'NO_WALLET',
          message: 'No TRON wallet: the user can set TRX_RENT_X402_TRON_KEY (or pass --key-file) and restart the server; nothing was sent.',
        });
      }
      const { privateKeyToTronAddress } = await import('../../protocol/tron-transaction.js');
      const signing = await walletSigning(session, privateKey, args, signal);
      const from = 'from' in signing ? signing.from : privateKeyToTronAddress(privateKey);
      const estimate = await session.api.transfers.estimate(
        { from, to: args.to, token: args.token, amount: args.amount, duration: args.duration_sec },
        { signal },
      );
      const symbol = estimate.token.symbol;
      if (symbol !== 'USDT' && symbol !== 'USDC') {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message: 'send_token moves USDT or USDC only (their value is capped in USD terms); nothing was sent.',
          details: { field: 'token' },
        });
      }
      const rentSun = estimate.rent?.cost_sun ?? 0;
      const { limits } = session.guard;
      const summary =
        `Send ${estimate.amount} ${symbol} from ${from} to ${estimate.to}` +
        (estimate.rent
          ? `, renting ${estimate.rent.amount} energy for at most ${sunToTrx(rentSun)} TRX instead of burning ${sunToTrx(estimate.burn.energy_sun)} TRX`
          : ' (the wallet has the energy)');
      const atomic = decimalToAtomic(estimate.amount, 6, 'amount');
      const effects = new Effects();
      const label = `sent ${estimate.amount} ${symbol} to ${estimate.to}`;
      // One spend, both currencies reserved together: the tokens (the user confirms them; the
      // summary names the rental too) and the rental's TRX, each under its own caps.
      return session.guard.spend(
        {
          tool: 'send_token',
          lines: [
            {
              currency: 'USDT',
              atomic,
              cap: {
                atomic: limits.maxWithdrawalAtomic,
                flag: '--max-withdrawal',
                off: 'token sends are off: the user can restart the server with --max-withdrawal AMOUNT; nothing was sent',
              },
            },
            ...(rentSun
              ? [{ currency: 'TRX' as const, atomic: BigInt(rentSun), cap: { atomic: limits.maxOrderSun, flag: '--max-order-trx', off: 'orders are off' } }]
              : []),
          ],
          summary,
        },
        ask,
        chainJob(
          session.api,
          effects,
          // The key rides on the rental; the journal keeps the order and the signed tx id, by
          // which an unknown outcome is looked up (the transfer is never signed again).
          (idempotencyKey) =>
            session.api.transfers.send({
              token: estimate.token.address,
              to: estimate.to,
              amount: args.amount,
              duration: args.duration_sec,
              ...signing,
              maxCostSun: rentSun,
              // The caller's id is the transfer's identity (kept in the server's state folder across restarts).
              idempotencyKey: args.id ? `mcp-send-${args.id}` : idempotencyKey,
              timeoutMs: session.options.sendTimeoutMs,
              signal,
              onProgress: effects.onProgress,
            }),
          (r) => ({
            // What was charged: the rental's total_cost_sun and the receipt's fee, not the quote.
            outcomes: { USDT: { state: 'spent', atomic }, TRX: { state: 'spent', atomic: BigInt(r.total_cost_sun) } },
            what: `sent ${r.amount} ${symbol} to ${r.to} (${r.tx_id}); cost ${sunToTrx(r.total_cost_sun)} TRX, burning would have cost ${sunToTrx(r.burn_cost_sun)} TRX`,
          }),
          { currency: 'USDT', atomic, label },
        ),
      );
    },
  }),
];
