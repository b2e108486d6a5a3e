/**
 * Two MCP servers on one PostgreSQL store share the session cap (`trx-rent mcp --store` and
 * `TRX_RENT_STORE`), on a real server (test/helpers/postgres.ts) and the built bin, each server
 * its own process with its own config directory, both on one mock service:
 *
 * - a spend that each server would take alone (under its own cap) is refused by the second once
 *   the first has spent, and a server started later counts both (the allowance is the store's);
 * - two servers asked at once for the last of the cap: one order placed, the other refused;
 * - the servers' own folders, for contrast: each takes the spend;
 * - in-process, on the same database: a server that dies with a spend open leaves it to another,
 *   which counts it (nothing to look it up by) and settles it once for every server;
 * - the spend journal's keyed POST and x402 records on the shared journal: a server that dies
 *   after its create_order left (answer lost) and with an x402 payment of unknown outcome; one
 *   other adopts both: the order found by replaying its key (one order on the mock), the payment
 *   counted against its x402 budget; a call with the same arguments on a third server is answered
 *   with that order, nothing new sent or counted.
 *
 * The store's URL carries a password: no server prints it. The mock's order log is the judge.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/internal/json.js';
import { Session } from '../../src/mcp/session.js';
import { keyedPost } from '../../src/mcp/spend.js';
import { usdToAtto } from '../../src/x402/offers.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { TARGET, errorOf, ok } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'trx-rent.js');

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([startPostgres(), startMockServer({ rateLimits: false, seed: 3905 })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

/** 65,000 energy at most 92 SUN a unit: at most 5.98 TRX, under a 10 TRX cap alone, over it twice. */
const ORDER = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET, max_price_sun: 92 };
const CAPS = ['--allow-spend', '--spend-without-confirmation', '--max-order-trx', '8', '--session-limit', '10'];

interface Server {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

/** `trx-rent mcp` on the mock as its own process; `store` through `--store`, or `env` through TRX_RENT_STORE. */
async function server(options: { flag?: string; env?: string } = {}): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--base-url', mock.url, '--tron-node', mock.url, ...CAPS, ...(options.flag ? ['--store', options.flag] : [])],
    cwd: ROOT,
    stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '',
      TRX_RENT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'trx-rent-mcp-shared-')),
      TRX_RENT_API_KEY: mock.apiKey,
      NO_COLOR: '1',
      ...(options.env ? { TRX_RENT_STORE: options.env } : {}),
    },
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const client = new Client({ name: 'trx-rent-shared-test', version: '1.0.0' });
  await client.connect(transport, { timeout: 20_000 });
  return { client, stderr: () => err, close: () => client.close() };
}

const order = async (s: Server) => (await s.client.callTool({ name: 'create_order', arguments: ORDER }, undefined, { timeout: 30_000 })) as CallToolResult;
const ordersPlaced = () => mock.state.orders.all().filter((o) => o.target_address === TARGET).length;

describe('MCP servers on one PostgreSQL store share the session cap', { timeout: 120_000 }, () => {
  it('a spend each server would take alone is refused by the second; a server started later counts both; the password is never printed', async () => {
    const store = `${pg.url}?schema=mcp_caps`;
    const before = ordersPlaced();
    const [a, b] = await Promise.all([server({ flag: store }), server({ env: store })]);
    try {
      const first = ok<{ order: { id: string }; max_cost_trx: string }>(await order(a));
      expect(first.max_cost_trx).toBe('5.98');
      const refused = errorOf(await order(b));
      expect(refused.code).toBe('SESSION_LIMIT');
      expect(refused.message).toMatch(/5\.98 TRX spent/);
      expect(ordersPlaced() - before).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // A third server, after both stopped: the allowance is the store's, not a process's.
    const c = await server({ flag: store });
    try {
      expect(errorOf(await order(c)).code).toBe('SESSION_LIMIT');
    } finally {
      await c.close();
    }
    expect(ordersPlaced() - before).toBe(1);
    for (const s of [a, b, c]) {
      expect(s.stderr()).not.toContain(pg.password);
      expect(s.stderr()).toMatch(
        /shared by all sessions, and by every server on the store postgres:\/\/trx:\*\*\*@127\.0\.0\.1:\d+\/postgres\?schema=mcp_caps/,
      );
    }
    expect(a.stderr()).toMatch(/spent create_order: order /);
  });

  it('two servers asked at once for the last of the cap: one order, one SESSION_LIMIT', async () => {
    const store = `${pg.url}?schema=mcp_race`;
    const before = ordersPlaced();
    const [a, b] = await Promise.all([server({ flag: store }), server({ flag: store })]);
    try {
      const answers = await Promise.all([order(a), order(b)]);
      const codes = answers.map((r) => (r.isError ? errorOf(r).code : 'ok')).sort();
      expect(codes).toEqual(['SESSION_LIMIT', 'ok']);
      expect(ordersPlaced() - before).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('for contrast, two servers on their own folders: each takes the spend (each has its own cap)', async () => {
    const before = ordersPlaced();
    const [a, b] = await Promise.all([server(), server()]);
    try {
      ok(await order(a));
      ok(await order(b));
      expect(ordersPlaced() - before).toBe(2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a server that dies with a spend open leaves it to another: counted once, by one server, for all', async () => {
    const store = postgresStore(`${pg.url}?schema=mcp_adopt`, { leaseMs: 500 });
    const session = () =>
      new Session({
        baseUrl: mock.url,
        apiKey: mock.apiKey,
        allowSpend: true,
        spendWithoutConfirmation: true,
        limits: { sessionLimit: '10', maxOrderTrx: '8' },
        store,
        log: () => {},
      });
    const line = (s: Session, atomic: bigint) => ({
      tool: 'create_order',
      lines: [{ currency: 'TRX' as const, atomic, cap: { atomic: s.guard.limits.maxOrderSun, flag: '--max-order-trx', off: 'off' } }],
      summary: `a spend of ${atomic} SUN`,
    });
    const dying = session();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    // Its order request never ends: the server dies with the spend open (reserved, written, not settled).
    void dying.guard.spend(
      line(dying, 4_000_000n),
      async () => true,
      keyedPost(
        'TRX',
        () => {
          started();
          return new Promise<never>(() => {});
        },
        () => '',
      ),
    );
    await running;
    const [watcher, heir] = [session(), session()];
    // A spend that is done at once, counted at what it reserved.
    const noop = keyedPost(
      'TRX',
      async () => ({}),
      () => 'done',
    );
    // Alive: the others hold its spend as reserved (4 of 10 TRX): 7 more would be too much.
    await expect(watcher.guard.spend(line(watcher, 7_000_000n), async () => true, noop)).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    expect(watcher.guard.reserved('TRX')).toBe(4_000_000n);
    // It dies: its liveness hold is gone (here let go; a killed process's lease passes).
    await dying.guard.close();
    // The next spend of another server adopts it: nothing to look it up by, so counted at what it held.
    await heir.guard.spend(line(heir, 1_000_000n), async () => true, noop);
    expect(heir.guard.spent('TRX')).toBe(5_000_000n);
    expect(heir.guard.reserved('TRX')).toBe(0n);
    // The watcher reads the settlement: counted once, the reservation released.
    await expect(watcher.guard.spend(line(watcher, 5_000_001n), async () => true, noop)).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    expect(watcher.guard.spent('TRX')).toBe(5_000_000n);
    expect(watcher.guard.reserved('TRX')).toBe(0n);
    await watcher.guard.spend(line(watcher, 5_000_000n), async () => true, noop);
    const later = session();
    await expect(later.guard.spend(line(later, 1n), async () => true, noop)).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    expect(later.guard.spent('TRX')).toBe(10_000_000n);
    await Promise.all([watcher.close(), heir.close(), later.close()]);
    await store.close();
  });

  it("a dead server's keyed create_order and x402 payment in the shared journal: adopted by one other, the order found by its key, the payment counted once", async () => {
    const store = postgresStore(`${pg.url}?schema=mcp_keyed`, { leaseMs: 500 });
    const session = () =>
      new Session({
        baseUrl: mock.url,
        apiKey: mock.apiKey,
        allowSpend: true,
        spendWithoutConfirmation: true,
        limits: { sessionLimit: '10', maxOrderTrx: '8', x402Budget: '1' },
        store,
        log: () => {},
      });
    const body = { ...ORDER, duration_sec: 7200 };
    const request = { endpoint: 'createOrder' as const, body, args: canonicalJson(body) };
    const line = (s: Session, atomic: bigint) => ({
      tool: 'create_order',
      lines: [{ currency: 'TRX' as const, atomic, cap: { atomic: s.guard.limits.maxOrderSun, flag: '--max-order-trx', off: 'off' } }],
      summary: `a spend of ${atomic} SUN`,
    });
    const charged = (o: { total_cost_sun?: number | null }) => (typeof o.total_cost_sun === 'number' ? BigInt(o.total_cost_sun) : undefined);
    const orderJob = (post: (key: string) => Promise<unknown>) => keyedPost('TRX', post, () => 'order', charged as never, { request });
    const before = ordersPlaced();
    const dying = session();
    let sent!: () => void;
    const placed = new Promise<void>((r) => (sent = r));
    // The order reaches the service; its answer never reaches the server, which dies with the spend open.
    void dying.guard.spend(
      line(dying, 5_980_000n),
      async () => true,
      orderJob(async (key) => {
        await dying.api.orders.create(body as never, { idempotencyKey: key });
        sent();
        return new Promise<never>(() => {});
      }),
    );
    await placed;
    // An x402 payment written down (approved, about to be signed) whose call never ends.
    await dying.guard.records.paying('x402_network', 'a paid call', {
      amount_usd: '0.25',
      amount: '250000',
      symbol: 'USDT',
      network: 'tron:nile',
      scheme: 'exact',
      pay_to: TARGET,
      call: 'GET /x402/tron/network',
    });
    expect(ordersPlaced() - before).toBe(1);
    await dying.guard.close();
    const [heir, other] = [session(), session()];
    const noop = keyedPost(
      'TRX',
      async () => ({}),
      () => 'done',
    );
    // The heir's next spend adopts both: the order looked up by replaying its key, the payment counted.
    await heir.guard.spend(line(heir, 1_000_000n), async () => true, noop);
    expect(heir.guard.unknownOutcomes).toBe(0);
    expect(heir.guard.reserved('TRX')).toBe(0n);
    const order = heir.guard.spent('TRX') - 1_000_000n;
    expect(order > 0n && order <= 5_980_000n).toBe(true);
    expect(heir.guard.records.x402Carried).toBe(usdToAtto('0.25'));
    expect(heir.x402Spent()).toBe('0.25');
    expect(ordersPlaced() - before).toBe(1);
    // Another server adopts nothing more (each spend once) and counts what the heir settled.
    await other.guard.spend(line(other, 1n), async () => true, noop);
    expect(other.guard.records.x402Carried).toBe(0n);
    expect(other.guard.spent('TRX')).toBe(heir.guard.spent('TRX') + 1n);
    // The same create_order again, on a third server: answered with the first order (its key replayed), nothing new.
    const id = mock.state.orders
      .all()
      .filter((o) => o.target_address === TARGET)
      .at(-1)!.id;
    let posted = 0;
    const again = await other.guard.spend(
      line(other, 5_980_000n),
      async () => true,
      orderJob(async () => {
        posted++;
        return {};
      }),
    );
    expect(posted).toBe(0);
    expect((again as { id: string }).id).toBe(id);
    expect(other.guard.spent('TRX')).toBe(heir.guard.spent('TRX') + 1n);
    expect(ordersPlaced() - before).toBe(1);
    await Promise.all([heir.close(), other.close()]);
    await store.close();
  });
});
