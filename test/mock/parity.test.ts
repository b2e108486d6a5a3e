/**
 * One handler set, two ways to run it: the same requests through the HTTP server and through
 * msw's getResponse over the full handler list (no index, no sockets) give the same status and
 * body, on two states with the same seed and clock. Covers every route, the paid side's paths,
 * unknown routes and trailing slashes.
 */
import { getResponse } from 'msw';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, ROUTES, createManualClock, createMockState, startMockServer } from '../../src/mock/index.js';
import { createHandlers } from '../../src/mock/msw.js';
import { T0, TARGET } from './helpers.js';

const state = createMockState({ seed: 21, clock: createManualClock(T0) });
const handlers = createHandlers(state, { rateLimits: false });
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 21, clock: createManualClock(T0), rateLimits: false });
});
afterAll(async () => {
  await mock.close();
  state.dispose();
});

it('HTTP and in-process answer identically, route by route', async () => {
  expect(mock.apiKey).toBe(state.demo.api_key);
  const bodies: Record<string, unknown> = {
    '/api/v1/orders': { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET },
    '/api/v1/keys': { name: 'k', permissions: ['view_orders'] },
    '/api/v1/webhooks': { url: 'https://hooks.example/x', events: ['order.filled'] },
    '/api/v1/withdraw': { address: TARGET, amount: 50_000_000, currency: 'TRX' },
    '/api/v1/deposit/prepare': { amount_sun: 1_000_000 },
    '/__mock/accounts': { trx_sun: 5 },
    '/__mock/credit': { amount_sun: 5 },
    '/__mock/clock/advance': { ms: 0 },
  };
  const requests: Array<[string, string]> = [];
  for (const route of ROUTES) requests.push([route.method, route.path.replace(':id', 'tem')]);
  requests.push(
    ['GET', '/api/v1/prices/'],
    ['GET', '/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600'],
    ['GET', '/API/V1/PRICES'],
    ['GET', '/api/v1/unknown'],
    ['PUT', '/api/v1/orders'],
    ['GET', '/__mock/nope'],
    ['GET', '/wallet/getnowblock'],
    ['POST', '/wallet/getnowblock'],
    ['GET', '/__mock/x402/config'],
    ['GET', '/x402/tron/nothing'],
    ['GET', '/nothing'],
  );
  for (const [method, path] of requests) {
    const pathname = path.split('?')[0]!;
    const body = method === 'GET' ? undefined : JSON.stringify(bodies[pathname] ?? {});
    const headers = { 'x-api-key': state.demo.api_key, 'content-type': 'application/json' };
    const viaHttp = await fetch(mock.url + path, { method, headers, body });
    const httpText = await viaHttp.text();
    const inProcess = await getResponse(handlers, new Request(`http://mock.local${path}`, { method, headers, body }));
    if (!inProcess) {
      // no handler at all: the server answers its own 404 envelope
      expect([`${method} ${path}`, viaHttp.status, JSON.parse(httpText).error.code]).toEqual([`${method} ${path}`, 404, 'NOT_FOUND']);
      continue;
    }
    expect(`${method} ${path} -> ${viaHttp.status}`).toBe(`${method} ${path} -> ${inProcess.status}`);
    expect(httpText, `${method} ${path}`).toBe(await inProcess.text());
  }
});
