import * as z from 'zod';
import { LIMITS } from '../../schemas/common.js';
import { PrepareDepositRequest, SignedTransaction, SubmitDepositRequest } from '../../schemas/deposits.js';
import { CreateWithdrawalRequest } from '../../schemas/withdrawals.js';
import { memoToHex } from '../../protocol/tron-transaction.js';
import { withdrawalShape } from '../state/money.js';
import { MockApiError } from '../http/errors.js';
import type { RouteDef } from '../http/route.js';

const BroadcastRequest = z.strictObject({ signed_tx: SignedTransaction });

export const moneyRoutes: RouteDef[] = [
  {
    // Follows the live service (the spec does not show it).
    method: 'GET',
    path: '/api/v1/deposit/info',
    group: 'other',
    auth: 'account',
    handle: ({ state, account }) => ({
      status: 200,
      body: {
        address: state.platformAddress,
        memo: account.memo,
        min_amount_trx: LIMITS.MIN_DEPOSIT_SUN / 1_000_000,
        min_amount_usdt: 1,
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/v1/deposit/prepare',
    group: 'other',
    auth: 'account',
    body: true,
    handle: ({ state, body, account, parse }) => {
      const input = parse(PrepareDepositRequest, body);
      return {
        status: 200,
        body: {
          address: state.platformAddress,
          memo: account.memo,
          amount_sun: input.amount_sun,
          memo_hex: memoToHex(account.memo),
          note: `Send a TRX transfer of at least ${input.amount_sun} SUN to ${state.platformAddress} with raw_data.data = memo_hex (${account.memo}), sign it with the sending account's key, and POST it to /api/v1/deposit/submit as { signed_tx }. Without the memo the deposit cannot be credited.`,
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/deposit/submit',
    group: 'other',
    auth: 'public',
    body: true,
    statuses: { VALIDATION_ERROR: 400 },
    handle: ({ state, body, parse }) => {
      const input = parse(SubmitDepositRequest, body);
      const deposit = state.money.submitDeposit(input.signed_tx);
      return { status: 200, body: { tx_id: deposit.tx_id, status: 'pending' } };
    },
  },
  {
    // The spec lists only the 5/min limit and authentication for withdrawals (no permission).
    // Its withdraw row gives 400 INSUFFICIENT_BALANCE both for a short balance and for an
    // invalid address; the mock follows it literally (details.reason tells them apart).
    method: 'POST',
    path: '/api/v1/withdraw',
    group: 'withdraw',
    auth: 'account',
    body: true,
    idempotent: true,
    statuses: { INSUFFICIENT_BALANCE: 400 },
    handle: ({ state, body, account, parse }) => {
      let input;
      try {
        input = parse(CreateWithdrawalRequest, body);
      } catch (error) {
        if (error instanceof MockApiError && error.code === 'INVALID_ADDRESS') {
          throw new MockApiError('INSUFFICIENT_BALANCE', error.message, { ...error.details, field: 'address', reason: 'INVALID_ADDRESS' });
        }
        throw error;
      }
      const withdrawal = state.money.withdraw(account, input);
      return { status: 200, body: withdrawalShape(withdrawal) };
    },
  },
  {
    // The spec names the endpoint and its permission but not its body: the mock takes a signed
    // transaction and runs the simulated network's checks (signature, expiry, duplicates).
    method: 'POST',
    path: '/api/v1/broadcast',
    group: 'other',
    auth: 'broadcast',
    body: true,
    handle: ({ state, body, parse }) => {
      const input = parse(BroadcastRequest, body);
      return { status: 200, body: state.money.broadcast(input.signed_tx) };
    },
  },
];
