import type { CONTROL_ENDPOINTS } from '../control-endpoints.js';
import { MockApiError } from '../shared/errors.js';
import type { PlainHandlers } from '../http/table.js';

/**
 * The account side's /__mock/ control routes (their facts and body schemas are in
 * `../control-endpoints.ts`): no auth, no rate limit, no chaos, no envelope. Each one is also a
 * method on the state.
 */
type AccountControl = Pick<
  typeof CONTROL_ENDPOINTS,
  | 'mockState'
  | 'mockCreateAccount'
  | 'mockCredit'
  | 'mockClock'
  | 'mockAdvanceClock'
  | 'mockWebhookDeliveries'
  | 'mockDeposit'
  | 'mockProvider'
  | 'mockTreasury'
  | 'mockInvariants'
  | 'mockOrder'
  | 'mockWithdrawal'
>;

export const accountControlHandlers = {
  mockState: {
    handle: ({ state }) => ({
      status: 200,
      body: {
        now: new Date(state.now()).toISOString(),
        clock: state.clock.kind,
        seed: state.seed,
        platform_address: state.platformAddress,
        demo: { account_id: state.demo.account_id, memo: state.demo.memo },
        accounts: state.accounts.byId.size,
        pending_tasks: state.scheduler.size,
      },
    }),
  },
  mockCreateAccount: {
    handle: ({ state, input }) => ({ status: 201, body: state.createAccount(input.body) }),
  },
  mockCredit: {
    handle: ({ state, input: { body: input } }) => {
      const id = input.account_id ?? state.demo.account_id;
      if (!state.getAccount(id)) throw new MockApiError('NOT_FOUND', `No account ${id}`, { field: 'account_id' });
      state.credit(id, input.amount_sun, input.currency ?? 'TRX');
      return { status: 200, body: { account_id: id, balance: state.balance(id) } };
    },
  },
  mockClock: {
    handle: ({ state }) => ({ status: 200, body: { now: state.now(), iso: new Date(state.now()).toISOString(), kind: state.clock.kind } }),
  },
  mockAdvanceClock: {
    handle: async ({ state, input }) => {
      await state.advance(input.body.ms);
      return { status: 200, body: { now: state.now(), iso: new Date(state.now()).toISOString(), kind: state.clock.kind } };
    },
  },
  mockWebhookDeliveries: {
    handle: ({ state, input }) => ({ status: 200, body: { deliveries: state.webhookDeliveries(input.query) } }),
  },
  mockDeposit: {
    handle: ({ state, input: { body: input } }) => {
      const account = input.memo !== undefined ? state.findAccountByMemo(input.memo) : state.getAccount(input.account_id ?? state.demo.account_id);
      if (!account) throw new MockApiError('NOT_FOUND', 'No account for that memo or account_id', { field: input.memo !== undefined ? 'memo' : 'account_id' });
      const record = state.simulateDeposit({ account_id: account.id, amount_sun: input.amount_sun, from_address: input.from_address });
      return {
        status: 200,
        body: {
          tx_id: record.tx_id,
          status: 'pending',
          account_id: account.id,
          credit_at: new Date(record.created_at + state.timings.depositCreditMs).toISOString(),
        },
      };
    },
  },
  mockProvider: {
    handle: ({ state, input: { body: input, params } }) => {
      const id = params.id;
      if (!state.market.provider(id)) throw new MockApiError('NOT_FOUND', `Unknown provider ${id}`, { field: 'id' });
      const { reset, ...override } = input;
      if (reset) state.setProviderOverride(id, null);
      if (Object.keys(override).length) state.setProviderOverride(id, override);
      const snapshot = state.market.prices().find((p) => p.provider === id);
      return { status: 200, body: { provider: snapshot, override: state.market.getOverride(id) ?? null } };
    },
  },
  mockTreasury: {
    handle: ({ state, input: { body: input } }) => {
      state.setWithdrawalFailure(input.fail_withdrawals ? (input.reason ?? 'treasury signer unavailable') : null);
      return { status: 200, body: { fail_withdrawals: state.money.failWithdrawals !== false, reason: state.money.failWithdrawals || null } };
    },
  },
  mockInvariants: {
    handle: ({ state }) => ({ status: 200, body: state.checkInvariants() }),
  },
  mockOrder: {
    handle: ({ state, input: { params } }) => ({ status: 200, body: found(state.orderDetails(params.id), 'order') }),
  },
  mockWithdrawal: {
    handle: ({ state, input: { params } }) => ({ status: 200, body: found(state.withdrawalDetails(params.id), 'withdrawal') }),
  },
} satisfies PlainHandlers<AccountControl>;

function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MockApiError('NOT_FOUND', `No ${what} with that id`, { field: 'id' });
  return value;
}
