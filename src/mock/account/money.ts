import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import { LIMITS } from '../../schemas/common.js';
import { memoToHex } from '../../protocol/tron-transaction.js';
import { withdrawalShape } from '../state/money.js';
import { MockApiError } from '../shared/errors.js';
import type { PlainHandlers } from '../http/table.js';

type Money = Pick<typeof ACCOUNT_ENDPOINTS, 'getDepositInfo' | 'prepareDeposit' | 'submitDeposit' | 'createWithdrawal' | 'broadcastTransaction'>;

export const moneyHandlers = {
  getDepositInfo: {
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
  prepareDeposit: {
    handle: ({ state, input: { body: input }, account }) => ({
      status: 200,
      body: {
        address: state.platformAddress,
        memo: account.memo,
        amount_sun: input.amount_sun,
        memo_hex: memoToHex(account.memo),
        note: `Send a TRX transfer of at least ${input.amount_sun} SUN to ${state.platformAddress} with raw_data.data = memo_hex (${account.memo}), sign it with the sending account's key, and submit it as { signed_tx } (no authentication needed). Without the memo the deposit cannot be credited.`,
      },
    }),
  },
  submitDeposit: {
    handle: ({ state, input: { body } }) => {
      const deposit = state.money.submitDeposit(body.signed_tx);
      return { status: 200, body: { tx_id: deposit.tx_id, status: 'pending' } };
    },
  },
  createWithdrawal: {
    // The spec's withdraw row gives 400 INSUFFICIENT_BALANCE both for a short balance and for an
    // invalid address; the mock follows it literally (details.reason tells them apart).
    onInvalid: (error) =>
      error.code === 'INVALID_ADDRESS'
        ? new MockApiError('INSUFFICIENT_BALANCE', error.message, { ...error.details, field: 'address', reason: 'INVALID_ADDRESS' })
        : error,
    handle: ({ state, input: { body }, account }) => ({ status: 200, body: withdrawalShape(state.money.withdraw(account, body)) }),
  },
  broadcastTransaction: {
    // Any signed transaction: the signature is verified, then the simulated network's checks
    // apply (expiry, reference block, the contract itself). Broadcasting the same transaction
    // again answers the same tx_id, so a retry is safe.
    handle: ({ state, input: { body } }) => ({ status: 200, body: state.money.broadcast(body.signed_tx) }),
  },
} satisfies PlainHandlers<Money>;
