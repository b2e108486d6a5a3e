/** Shared set-up of the rules tests: a mock on a manual clock, clients on its virtual clock, addresses. */
import { TrxRent, toTronAddress, virtualClock } from '../../../src/index.js';
import { type MockServer, createManualClock, startMockServer } from '../../../src/mock/index.js';
import type { OrderList } from '../../../src/schemas/orders.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A valid TRON address per index (not a known contract; not an account until `world.activate`). */
export function testAddress(i: number): string {
  return toTronAddress(`41${(0xabc000 + i).toString(16).padStart(40, '0')}`);
}

export async function startWorld(seed: number, demoTrx = 100_000) {
  const time = createManualClock(Date.UTC(2026, 10, 28, 0, 0, 0));
  const mock: MockServer = await startMockServer({ seed, clock: time, rateLimits: false, demoBalance: { trx_sun: demoTrx * 1_000_000 } });
  const client = () => new TrxRent({ baseUrl: mock.url, apiKey: mock.state.demo.api_key, tronNode: mock.url, clock: virtualClock(time), maxRetries: 0 });
  const control = async (path: string, body?: unknown) => {
    const r = await fetch(
      `${mock.url}${path}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, unknown>>;
  };
  /** Every order of the demo account, from the service (the judge). */
  const allOrders = async () => {
    const sdk = client();
    const out: OrderList['orders'] = [];
    for (let offset = 0; offset < 10_000; offset += 100) {
      const page = await sdk.orders.list({ limit: 100, offset });
      out.push(...page.orders);
      if (page.orders.length < 100) break;
    }
    return out;
  };
  /**
   * Make addresses accounts on the mock's chain (as an AccountCreate would, with no TRX): a rental
   * to a never-activated address fails (TARGET_NOT_ACTIVATED), as on TRON.
   */
  const activate = (...addresses: string[]) => {
    for (const address of addresses) mock.state.chain.activate(address);
  };
  return { time, mock, client, control, allOrders, activate };
}
