/**
 * The mock's whole route table: the service's operations and the `/__mock/` control routes,
 * compiled from their endpoint tables with their handlers, then the simulated outside world
 * (the TRON node, the GasFree relayer). Every adapter serves this one table.
 *
 * @module
 */
import { ACCOUNT_ENDPOINTS } from '../api/account-docs.js';
import { X402_ENDPOINTS } from '../api/x402.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { nodeRoutes } from './node-routes.js';
import { CONTROL_ENDPOINTS } from './control-endpoints.js';
import { CONTROL_HANDLERS, SERVICE_HANDLERS } from './handlers.js';
import type { RouteDef } from './http/route.js';
import { type Handler, tableRoutes } from './http/table.js';
import { relayerRoutes } from './x402-api/control.js';

/** The contract document per origin it names as its server (generated once: it is 130 KB of JSON). */
const documents = new Map<string, string>();

/** The OpenAPI document of the service the mock simulates, naming the mock as its server. */
const openApi: Handler<unknown> = {
  handle({ request }) {
    let json = documents.get(request.origin);
    if (json === undefined) {
      json = JSON.stringify(buildOpenApiDocument({ serverUrl: request.origin }));
      if (documents.size > 16) documents.clear();
      documents.set(request.origin, json);
    }
    return { status: 200, body: null, json };
  },
};

const pick = <K extends keyof typeof CONTROL_ENDPOINTS>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, CONTROL_ENDPOINTS[k]])) as Pick<typeof CONTROL_ENDPOINTS, K>;
const CONTROL = { ...CONTROL_HANDLERS, mockOpenApi: openApi };
const ACCOUNT_CONTROL_IDS = [
  'mockState',
  'mockCreateAccount',
  'mockCredit',
  'mockClock',
  'mockAdvanceClock',
  'mockWebhookDeliveries',
  'mockDeposit',
  'mockProvider',
  'mockTreasury',
  'mockInvariants',
  'mockOrder',
  'mockWithdrawal',
  'mockTriggerWebhook',
  'mockReactivateWebhook',
  'mockRedeliver',
  'mockWebhookDelivery',
] as const;
const PAID_CONTROL_IDS = [
  'mockChainTransfer',
  'mockChainFund',
  'mockFundAddress',
  'mockChainAccount',
  'mockChainUsage',
  'mockChainUsageGet',
  'mockChainDeposits',
  'mockChainDepositsGet',
  'mockChainDepositsStop',
  'mockX402Config',
  'mockSetX402Config',
  'mockX402Payments',
  'mockInvoice',
  'mockReceive',
  'mockWatch',
] as const;

/** Every account-API route and account-side /__mock/ control route. */
export const ROUTES: readonly RouteDef[] = [
  ...tableRoutes(ACCOUNT_ENDPOINTS, SERVICE_HANDLERS, 'service'),
  ...tableRoutes(pick(ACCOUNT_CONTROL_IDS), CONTROL, 'control'),
];

/** The twelve paid routes of the x402 API. */
export const paidRoutes: readonly RouteDef[] = tableRoutes(X402_ENDPOINTS, SERVICE_HANDLERS, 'service');

/** The simulated GasFree relayer and the paid side's /__mock/ control routes. */
export const paidHelperRoutes: readonly RouteDef[] = [...relayerRoutes, ...tableRoutes(pick(PAID_CONTROL_IDS), CONTROL, 'control')];

/** Every route the mock answers. */
export const ALL_ROUTES: readonly RouteDef[] = [
  ...ROUTES,
  ...paidRoutes,
  ...nodeRoutes,
  ...paidHelperRoutes,
  ...tableRoutes(pick(['mockOpenApi']), CONTROL, 'control'),
];
