/**
 * Money in and out: the deposit instructions (no money moves: the user signs the transfer
 * elsewhere) and withdrawals (spends: capped per call and per session, confirmed, logged).
 */
import { LIMITS } from '../../schemas/limits.js';
import { ACCOUNT_WIRE as E } from '../../api/account.js';
import { canonicalJson } from '../../internal/json.js';
import { keyedPost, money } from '../spend.js';
import { tool } from '../tool.js';

export const MONEY_TOOLS = [
  tool({
    name: 'prepare_deposit',
    title: 'Deposit instructions',
    description:
      `Where and how to deposit TRX: the platform address, the account's memo and its hex for the transfer's data field. amount_sun is in SUN (1 TRX = 1,000,000 SUN), at least ${LIMITS.MIN_DEPOSIT_SUN} (1 TRX). ` +
      'Moves no money: the user signs and sends the transfer with their own wallet; a transfer without the memo cannot be credited.',
    access: 'read',
    input: E.prepareDeposit.body,
    output: E.prepareDeposit.response,
    async run(args, { session, signal }) {
      return session.api.deposits.prepare(args, { signal });
    },
  }),
  tool({
    name: 'withdraw',
    title: 'Withdraw TRX or USDT',
    description:
      'Withdraw from the account balance to a TRON address. SPENDS MONEY: needs a server started with --allow-spend and a per-withdrawal cap (--max-withdrawal, off by default), ' +
      "counts against the server's total cap (--session-limit, all sessions together), and the user must confirm it (elicitation). " +
      `amount is an integer in SUN for TRX (1 TRX = 1,000,000 SUN) or in 6-decimal units for USDT, at least ${LIMITS.MIN_WITHDRAWAL_SUN} (50 TRX). Returns the withdrawal (status PENDING).`,
    access: 'spend',
    input: E.createWithdrawal.body,
    output: E.createWithdrawal.response,
    async run(args, { session, signal, ask }) {
      const atomic = BigInt(args.amount);
      const { limits } = session.guard;
      return session.guard.spend(
        {
          tool: 'withdraw',
          lines: [
            {
              currency: args.currency,
              atomic,
              cap: {
                atomic: limits.maxWithdrawalAtomic,
                flag: '--max-withdrawal',
                off: 'Withdrawals are off on this server: the user can restart it with --max-withdrawal AMOUNT (or set mcp_max_withdrawal in the profile). Nothing was sent.',
              },
            },
          ],
          summary: `Withdraw ${money(atomic, args.currency)} to ${args.address}`,
        },
        ask,
        keyedPost(
          args.currency,
          (idempotencyKey, replaySignal) => session.api.withdrawals.create(args, { signal: replaySignal ?? signal, idempotencyKey }),
          (w) => `withdrawal ${w.id} (${w.status}) of ${money(atomic, args.currency)} to ${args.address}`,
          undefined,
          // Journaled before it leaves: replayed with its key to settle a lost answer, or to answer a call again with the same arguments.
          { request: { endpoint: 'createWithdrawal', body: args, args: canonicalJson(args) } },
        ),
      );
    },
  }),
];
