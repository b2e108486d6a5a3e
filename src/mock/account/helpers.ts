import * as z from 'zod';
import { PERMISSIONS } from '../../schemas/keys.js';
import { tronAddress } from '../../schemas/common.js';
import { MockApiError } from '../http/errors.js';
import type { RouteDef } from '../http/route.js';

/**
 * Test helpers under /__mock/ (not part of the service): no auth, no rate limit, no chaos, no
 * envelope. Each one is also a method on the state.
 */
const sunAmount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const CreateAccountBody = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  trx_sun: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  usdt: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  permissions: z.array(z.enum(PERMISSIONS)).optional(),
});
const CreditBody = z.strictObject({
  account_id: z.string().optional(),
  amount_sun: sunAmount,
  currency: z.enum(['TRX', 'USDT']).optional(),
});
const AdvanceBody = z.strictObject({ ms: z.number().int().nonnegative().max(10 * 365 * 86_400_000) });
const DepositBody = z.strictObject({
  account_id: z.string().optional(),
  memo: z.string().optional(),
  amount_sun: sunAmount,
  from_address: tronAddress.optional(),
});
const ProviderBody = z.strictObject({
  online: z.boolean().optional(),
  price_factor: z.number().positive().max(1000).optional(),
  available_energy: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  available_bandwidth: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  fail_delegations: z.boolean().optional(),
  reset: z.boolean().optional(),
});
const TreasuryBody = z.strictObject({ fail_withdrawals: z.boolean(), reason: z.string().min(1).max(200).optional() });
const DeliveryQuery = z.strictObject({
  webhook_id: z.string().optional(),
  event: z.string().optional(),
  account_id: z.string().optional(),
  status: z.string().optional(),
});

const helper = { group: null, auth: 'public', helper: true } as const;

export const helperRoutes: RouteDef[] = [
  {
    ...helper,
    method: 'GET',
    path: '/__mock/state',
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
  {
    ...helper,
    method: 'POST',
    path: '/__mock/accounts',
    body: true,
    handle: ({ state, body, parse }) => ({ status: 201, body: state.createAccount(parse(CreateAccountBody, body)) }),
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/credit',
    body: true,
    handle: ({ state, body, parse }) => {
      const input = parse(CreditBody, body);
      const id = input.account_id ?? state.demo.account_id;
      if (!state.getAccount(id)) throw new MockApiError('NOT_FOUND', `No account ${id}`, { field: 'account_id' });
      state.credit(id, input.amount_sun, input.currency ?? 'TRX');
      return { status: 200, body: { account_id: id, balance: state.balance(id) } };
    },
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/clock',
    handle: ({ state }) => ({ status: 200, body: { now: state.now(), iso: new Date(state.now()).toISOString(), kind: state.clock.kind } }),
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/clock/advance',
    body: true,
    handle: async ({ state, body, parse }) => {
      await state.advance(parse(AdvanceBody, body).ms);
      return { status: 200, body: { now: state.now(), iso: new Date(state.now()).toISOString(), kind: state.clock.kind } };
    },
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/webhooks/deliveries',
    handle: ({ state, query, parse }) => ({ status: 200, body: { deliveries: state.webhookDeliveries(parse(DeliveryQuery, query)) } }),
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/deposits',
    body: true,
    handle: ({ state, body, parse }) => {
      const input = parse(DepositBody, body);
      const account = input.memo !== undefined ? state.findAccountByMemo(input.memo) : state.getAccount(input.account_id ?? state.demo.account_id);
      if (!account) throw new MockApiError('NOT_FOUND', 'No account for that memo or account_id', { field: input.memo !== undefined ? 'memo' : 'account_id' });
      const record = state.simulateDeposit({ account_id: account.id, amount_sun: input.amount_sun, from_address: input.from_address });
      return { status: 200, body: { tx_id: record.tx_id, status: 'pending', account_id: account.id, credit_at: new Date(record.created_at + state.timings.depositCreditMs).toISOString() } };
    },
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/providers/:id',
    body: true,
    handle: ({ state, body, params, parse }) => {
      const input = parse(ProviderBody, body);
      const id = params.id ?? '';
      if (!state.market.provider(id)) throw new MockApiError('NOT_FOUND', `Unknown provider ${id}`, { field: 'id' });
      const { reset, ...override } = input;
      if (reset) state.setProviderOverride(id, null);
      if (Object.keys(override).length) state.setProviderOverride(id, override);
      const snapshot = state.market.prices().find((p) => p.provider === id);
      return { status: 200, body: { provider: snapshot, override: state.market.getOverride(id) ?? null } };
    },
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/treasury',
    body: true,
    handle: ({ state, body, parse }) => {
      const input = parse(TreasuryBody, body);
      state.setWithdrawalFailure(input.fail_withdrawals ? (input.reason ?? 'treasury signer unavailable') : null);
      return { status: 200, body: { fail_withdrawals: state.money.failWithdrawals !== false, reason: state.money.failWithdrawals || null } };
    },
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/orders/:id',
    handle: ({ state, params }) => ({ status: 200, body: found(state.orderDetails(params.id ?? ''), 'order') }),
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/withdrawals/:id',
    handle: ({ state, params }) => ({ status: 200, body: found(state.withdrawalDetails(params.id ?? ''), 'withdrawal') }),
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/invariants',
    handle: ({ state }) => ({ status: 200, body: state.checkInvariants() }),
  },
];

function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MockApiError('NOT_FOUND', `No ${what} with that id`, { field: 'id' });
  return value;
}
