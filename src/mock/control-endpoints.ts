/**
 * The mock's own control routes (`/__mock/…`): not part of the service, so not in the service's
 * endpoint table (`src/api/endpoints.ts`), but described the same way, one entry per route.
 * They are public, never rate limited, never chaos-injected, never wrapped in `{ data }`; a bad
 * body is a 400 VALIDATION_ERROR envelope. Tests and `trx-rent mock` call them over HTTP; each
 * also has a method on the mock state.
 *
 * The simulated outside world (the TRON node's `/wallet/*`, the GasFree relayer under
 * `/__mock/gasfree/`) is not here: those routes imitate other services' APIs.
 * @module
 */
import * as z from 'zod';
import { tronAddress } from '../schemas/common.js';
import { PERMISSIONS } from '../schemas/enums.js';
import { WEBHOOK_EVENTS } from '../schemas/enums.js';
import { TRON_SCHEMES } from '../protocol/networks.js';
import { type EndpointDef, withIds } from '../api/types.js';
import { DepositsBody, FundAddressBody, FundBody, TransferBody, UsageBody } from './chain-control-bodies.js';

const sunAmount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Any = z.unknown();

/** POST /__mock/accounts */
export const CreateAccountBody = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  trx_sun: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  usdt: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  permissions: z.array(z.enum(PERMISSIONS)).optional(),
});
/** POST /__mock/credit */
export const CreditBody = z.strictObject({
  account_id: z.string().optional(),
  amount_sun: sunAmount,
  currency: z.enum(['TRX', 'USDT']).optional(),
});
/** POST /__mock/clock/advance */
export const AdvanceBody = z.strictObject({
  ms: z
    .number()
    .int()
    .nonnegative()
    .max(10 * 365 * 86_400_000),
});
/** POST /__mock/deposits */
export const DepositBody = z.strictObject({
  account_id: z.string().optional(),
  memo: z.string().optional(),
  amount_sun: sunAmount,
  from_address: z.optional(tronAddress),
});
/** POST /__mock/providers/{id} */
export const ProviderBody = z.strictObject({
  online: z.boolean().optional(),
  price_factor: z.number().positive().max(1000).optional(),
  available_energy: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  available_bandwidth: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  fail_delegations: z.boolean().optional(),
  reset: z.boolean().optional(),
});
/** POST /__mock/webhooks/trigger */
export const TriggerBody = z.strictObject({
  event: z.enum(WEBHOOK_EVENTS),
  account_id: z.string().min(1).optional(),
  /** The event's `data`; default: a sample of its real shape. */
  data: z.record(z.string(), z.unknown()).optional(),
});
/** POST /__mock/treasury */
export const TreasuryBody = z.strictObject({ fail_withdrawals: z.boolean(), reason: z.string().min(1).max(200).optional() });
/** GET /__mock/webhooks/deliveries */
export const DeliveryQuery = z.strictObject({
  webhook_id: z.string().optional(),
  event: z.string().optional(),
  account_id: z.string().optional(),
  status: z.string().optional(),
});
/** POST /__mock/x402/config: the paywall's options, each optional. */
export const PaywallConfigBody = z.strictObject({
  version: z.union([z.literal(1), z.literal(2)]).optional(),
  tronNetwork: z.string().min(1).max(64).optional(),
  schemes: z.array(z.enum(TRON_SCHEMES)).optional(),
  offerBase: z.boolean().optional(),
  requireFunds: z.boolean().optional(),
  strictEvmAmount: z.boolean().optional(),
  maxTimeoutSeconds: z.number().int().positive().max(86_400).optional(),
  gasfreeTransferFee: z.string().regex(/^\d+$/, 'gasfreeTransferFee must be an integer string (atomic units)').optional(),
});

const IdParam = z.strictObject({ id: z.string().min(1) });
const NONE = { none: 'mock control route: not part of the service (tests and `trx-rent mock` call it over HTTP)' } as const;
const BAD = [{ code: 'VALIDATION_ERROR', status: 400, when: 'the body or query failed validation' }] as const;
const control = { api: 'mock', auth: 'public', rateGroup: null, idempotent: false, status: 200, source: 'natural-design', sdk: NONE } as const;

/** Every `/__mock/` control route, keyed by id. */
export const CONTROL_ENDPOINTS = withIds({
  mockState: {
    ...control,
    method: 'GET',
    path: '/__mock/state',
    summary: "The mock's clock, seed, platform address and demo account",
    response: Any,
    errors: [],
  },
  mockCreateAccount: {
    ...control,
    method: 'POST',
    path: '/__mock/accounts',
    summary: 'Create an account (and its key) with a balance',
    status: 201,
    body: CreateAccountBody,
    response: Any,
    errors: BAD,
  },
  mockCredit: {
    ...control,
    method: 'POST',
    path: '/__mock/credit',
    summary: "Credit an account's balance",
    body: CreditBody,
    response: Any,
    errors: [...BAD, { code: 'NOT_FOUND', status: 404, when: 'no such account' }],
  },
  mockClock: { ...control, method: 'GET', path: '/__mock/clock', summary: "The mock's clock", response: Any, errors: [] },
  mockAdvanceClock: {
    ...control,
    method: 'POST',
    path: '/__mock/clock/advance',
    summary: 'Advance the manual clock, running due work',
    body: AdvanceBody,
    response: Any,
    errors: BAD,
  },
  mockWebhookDeliveries: {
    ...control,
    method: 'GET',
    path: '/__mock/webhooks/deliveries',
    summary: 'Webhook deliveries made so far',
    query: DeliveryQuery,
    response: Any,
    errors: BAD,
  },
  mockDeposit: {
    ...control,
    method: 'POST',
    path: '/__mock/deposits',
    summary: 'Land an on-chain deposit for an account (by memo or id)',
    body: DepositBody,
    response: Any,
    errors: [...BAD, { code: 'NOT_FOUND', status: 404, when: 'no account for that memo or id' }],
  },
  mockProvider: {
    ...control,
    method: 'POST',
    path: '/__mock/providers/{id}',
    summary: "Override a provider's state (online, price factor, availability, failures)",
    params: IdParam,
    body: ProviderBody,
    response: Any,
    errors: [...BAD, { code: 'NOT_FOUND', status: 404, when: 'unknown provider' }],
  },
  mockTreasury: {
    ...control,
    method: 'POST',
    path: '/__mock/treasury',
    summary: 'Make the treasury fail withdrawals, or not',
    body: TreasuryBody,
    response: Any,
    errors: BAD,
  },
  mockInvariants: { ...control, method: 'GET', path: '/__mock/invariants', summary: 'Check the ledger invariants', response: Any, errors: [] },
  mockOrder: {
    ...control,
    method: 'GET',
    path: '/__mock/orders/{id}',
    summary: "An order with the mock's own bookkeeping (a PERIODIC order's runs, why it failed)",
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown order' }],
  },
  mockWithdrawal: {
    ...control,
    method: 'GET',
    path: '/__mock/withdrawals/{id}',
    summary: "A withdrawal with the mock's own bookkeeping (when it was made)",
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown withdrawal' }],
  },
  mockTriggerWebhook: {
    ...control,
    method: 'POST',
    path: '/__mock/webhooks/trigger',
    summary: 'Fire an event (sample data of its real shape, or the given data) at the registered endpoints',
    body: TriggerBody,
    response: Any,
    errors: BAD,
  },
  mockReactivateWebhook: {
    ...control,
    method: 'POST',
    path: '/__mock/webhooks/{id}/reactivate',
    summary: 'Turn a deactivated webhook endpoint back on',
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown webhook' }],
  },
  mockRedeliver: {
    ...control,
    method: 'POST',
    path: '/__mock/webhooks/deliveries/{id}/redeliver',
    summary: 'Send a past event again (a new delivery, re-stamped and re-signed)',
    status: 201,
    params: IdParam,
    response: Any,
    errors: [
      { code: 'NOT_FOUND', status: 404, when: 'unknown delivery' },
      { code: 'VALIDATION_ERROR', status: 409, when: 'the webhook is inactive or gone' },
    ],
  },
  mockWebhookDelivery: {
    ...control,
    method: 'GET',
    path: '/__mock/webhooks/deliveries/{id}',
    summary: 'One webhook delivery and its attempts',
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown delivery' }],
  },
  mockChainTransfer: {
    ...control,
    method: 'POST',
    path: '/__mock/chain/transfer',
    summary: 'Land a TRC-20 transfer on the simulated chain',
    body: TransferBody,
    response: Any,
    errors: BAD,
  },
  mockChainFund: {
    ...control,
    method: 'POST',
    path: '/__mock/chain/fund',
    summary: 'Give an address TRX on the simulated chain',
    body: FundBody,
    response: Any,
    errors: BAD,
  },
  mockFundAddress: {
    ...control,
    method: 'POST',
    path: '/__mock/fund',
    summary: 'Fund any address on the simulated chain: TRX first (activating it), then USDT (`trx-rent mock fund`)',
    body: FundAddressBody,
    response: Any,
    errors: BAD,
  },
  mockChainAccount: {
    ...control,
    method: 'GET',
    path: '/__mock/chain/accounts/{address}',
    summary: "An address's balances on the simulated chain",
    params: z.strictObject({ address: z.string().min(1) }),
    response: Any,
    errors: BAD,
  },
  mockChainUsage: {
    ...control,
    method: 'POST',
    path: '/__mock/chain/usage',
    summary: 'Make an address spend energy over time on the mock clock (delegated first, then burnt)',
    body: UsageBody,
    response: Any,
    errors: BAD,
  },
  mockChainUsageGet: {
    ...control,
    method: 'GET',
    path: '/__mock/chain/usage/{address}',
    summary: "An address's usage pattern and what it spent, burnt and lacked so far",
    params: z.strictObject({ address: z.string().min(1) }),
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'no usage pattern for that address' }],
  },
  mockChainDeposits: {
    ...control,
    method: 'POST',
    path: '/__mock/chain/deposits',
    summary: 'Customers pay into deposit addresses over time on the mock clock (one deposit every every_sec)',
    body: DepositsBody,
    response: Any,
    errors: BAD,
  },
  mockChainDepositsGet: {
    ...control,
    method: 'GET',
    path: '/__mock/chain/deposits/{id}',
    summary: 'A deposit pattern and every deposit it made (tx id, address, amount, mock time)',
    params: z.strictObject({ id: z.string().min(1) }),
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'no deposit pattern with that id' }],
  },
  mockChainDepositsStop: {
    ...control,
    method: 'DELETE',
    path: '/__mock/chain/deposits/{id}',
    summary: 'Stop a deposit pattern (its deposits so far stay)',
    params: z.strictObject({ id: z.string().min(1) }),
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'no deposit pattern with that id' }],
  },
  mockX402Config: { ...control, method: 'GET', path: '/__mock/x402/config', summary: "The paywall's options", response: Any, errors: [] },
  mockSetX402Config: {
    ...control,
    method: 'POST',
    path: '/__mock/x402/config',
    summary: "Change the paywall's options (e.g. { version: 1 })",
    body: PaywallConfigBody,
    response: Any,
    errors: BAD,
  },
  mockX402Payments: { ...control, method: 'GET', path: '/__mock/x402/payments', summary: 'Payments the paywall has settled', response: Any, errors: [] },
  mockInvoice: {
    ...control,
    method: 'GET',
    path: '/__mock/x402/invoices/{id}',
    summary: 'An invoice with its payments (its payment page)',
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown invoice' }],
  },
  mockReceive: {
    ...control,
    method: 'GET',
    path: '/__mock/x402/receives/{id}',
    summary: 'A one-time receive watch and its payment',
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown receive' }],
  },
  mockWatch: {
    ...control,
    method: 'GET',
    path: '/__mock/x402/watches/{id}',
    summary: 'A watch and its deliveries',
    params: IdParam,
    response: Any,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'unknown watch' }],
  },
  mockOpenApi: {
    ...control,
    method: 'GET',
    path: '/openapi.json',
    summary: 'The OpenAPI 3.1 document of the simulated service, naming the mock as its server',
    response: Any,
    errors: [],
  },
} satisfies Record<string, EndpointDef>);

/** Ids of the mock's control routes. */
export type ControlEndpointId = keyof typeof CONTROL_ENDPOINTS;
