/**
 * `transfers.send` with the PostgreSQL store: one key, two processes, one signature. Two
 * separate Node processes (the worker is bundled from the source with esbuild), each with its
 * own client on `new TrxRent({ store: 'postgres://…' })`, send the same transfer with the same
 * idempotency key at the same moment; the transfer protocol signs inside the store's exclusive
 * section after reading again, so one signs and the other lands the first's transaction. The
 * judge is the mock's chain: one transfer from the sender; both processes report its tx id; the
 * store holds one record for the key. With no energy up front, the second process reaches the
 * delegation after the first's transaction used it up: it sees the key's record while it waits
 * and lands that transaction instead of waiting for energy until its timeout. Then the same pair
 * on separate file stores (separate config directories, as two hosts would be) for contrast:
 * two signatures.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { account, ordersOf, paid, sender } from '../workflows/payouts-helpers.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import { runCliInProcess } from '../cli/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'transfers-pg-'));

/**
 * `API_KEY STORE BASE_URL KEY_FILE TO AMOUNT IDEMPOTENCY_KEY [GO_FILE]`, the first two (secrets:
 * the key, the store's password) in the environment (`TRX_RENT_TEST_API_KEY`,
 * `TRX_RENT_TEST_STORE`), the others in argv: send once (within 60 s),
 * print `{ tx_id, resumed, steps }` or `{ error, steps }` (steps: the progress events' names).
 * With GO_FILE, the send writes GO_FILE.estimated after its estimate (its `confirm` is called)
 * and then waits until GO_FILE exists.
 */
const WORKER = join(dir, 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { TrxRent } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
const [baseUrl, keyFile, to, amount, idempotencyKey, go] = process.argv.slice(2);
const apiKey = process.env.TRX_RENT_TEST_API_KEY;
const store = process.env.TRX_RENT_TEST_STORE;
const client = new TrxRent({ baseUrl, apiKey, tronNode: baseUrl, store, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
const steps = [];
const confirm = go
  ? async () => {
      writeFileSync(go + '.estimated', '');
      for (let i = 0; i < 1200 && !existsSync(go); i++) await new Promise((r) => setTimeout(r, 50));
      return true;
    }
  : undefined;
try {
  const sent = await client.transfers.send({
    token: 'USDT', to, amount, signer: { privateKey: readFileSync(keyFile, 'utf8').trim() }, idempotencyKey,
    timeoutMs: 60_000, confirm, onProgress: (e) => steps.push(e.step),
  });
  console.log(JSON.stringify({ tx_id: sent.tx_id, resumed: sent.resumed, steps }));
} catch (e) {
  console.log(JSON.stringify({ error: e.code ?? e.message, message: e.message, steps }));
}
process.exit(0);
`,
);
buildSync({
  entryPoints: [join(dir, 'worker.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: WORKER,
  logLevel: 'error',
  external: ['tronweb', 'pg'],
});

/** Run the worker: `[API_KEY, STORE, ...argv]`, the first two passed in its environment. */
function send([apiKey, store, ...args]: string[]): Promise<{ tx_id?: string; resumed?: boolean; steps?: string[]; error?: string; message?: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, TRX_RENT_TEST_API_KEY: apiKey, TRX_RENT_TEST_STORE: store };
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!));
      } catch {
        reject(new Error(`worker: ${out} ${err}`));
      }
    });
  });
}

/** Energy and bandwidth delegated to `address` by a provider, enough for two transfers without renting. */
function giveResources(address: string): void {
  for (const [resource, amount] of [
    ['ENERGY', 1_000_000],
    ['BANDWIDTH', 10_000],
  ] as const) {
    mock.state.chain.delegateResource({
      from: labelAddress('resources provider'),
      to: address,
      resource,
      amount,
      lockSec: 0,
      success: true,
      label: 'test resources',
    });
  }
}

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([startPostgres(), startMockServer({ seed: 39, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

describe('transfers.send with the PostgreSQL store', { timeout: 120_000 }, () => {
  it('one key, two processes, one signature: the second reports the first transaction', async () => {
    const s = sender(mock, 0x39);
    // The sender has the energy already: the two processes race to sign, not to rent.
    giveResources(s.address);
    const acct = account(mock);
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const to = labelAddress('one key two processes');
    const store = `${pg.url}?schema=transfers`;
    const args = [acct.apiKey, store, mock.url, keyFile, to, '7.25', 'pay-invoice-39'];
    const [a, b] = await Promise.all([send(args), send(args)]);
    expect(a.error, a.message).toBeUndefined();
    expect(b.error, b.message).toBeUndefined();
    expect(a.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tx_id).toBe(a.tx_id);
    // The chain: one transfer from the sender, of 7.25 USDT.
    expect([...paid(mock, s.address).entries()]).toEqual([[to, { count: 1, atomic: 7_250_000n }]]);
    // The store: one record for the key, with that transaction.
    const j = await postgresStore(store).journal<{ type: string; record?: { key: string; tx_id: string } }>('transfers');
    const records = (await j.read()).filter((e) => e.type === 'record');
    expect(records.map((e) => [e.record!.key, e.record!.tx_id])).toEqual([['pay-invoice-39', a.tx_id]]);
    await j.close();
  });

  it('no energy up front: the second reaches the delegation after the first used it up, sees the record and lands that transaction (no wait for energy)', async () => {
    const s = sender(mock, 0x3c);
    const acct = account(mock);
    const keyFile = join(dir, 'key3');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const to = labelAddress('one key two processes renting');
    const store = `${pg.url}?schema=transfers_rent`;
    const go = join(dir, 'go-rent');
    const args = [acct.apiKey, store, mock.url, keyFile, to, '3.5', 'pay-invoice-41'];
    // The second estimates first (no energy on the sender: it must rent), then waits (its
    // confirm) until the first has paid: the energy they both rented (one order, one key) is
    // used up by then. The first starts only once the second has estimated: started together,
    // a slow second could estimate after the first's delegation and see no deficit at all.
    const second = send([...args, go]);
    for (let i = 0; i < 1200 && !existsSync(`${go}.estimated`); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(`${go}.estimated`), 'the second process estimated').toBe(true);
    const first = await send(args);
    expect(first.error, first.message).toBeUndefined();
    expect(paid(mock, s.address).get(to)?.count).toBe(1);
    writeFileSync(go, '');
    const late = await second;
    // The outcome: the first's transaction, resumed, not a TIMEOUT waiting for energy.
    expect(late.error, `${late.message} (${late.steps?.join(', ')})`).toBeUndefined();
    expect(late.tx_id).toBe(first.tx_id);
    expect(late.resumed).toBe(true);
    // Its log: it rented (the same order) and stopped waiting for the delegation; it never signed.
    expect(late.steps).toEqual(expect.arrayContaining(['estimated', 'ordered', 'filled', 'resumed']));
    expect(late.steps).not.toContain('delegated');
    expect(late.steps).not.toContain('signed');
    expect(first.steps).toEqual(expect.arrayContaining(['ordered', 'delegated', 'signed']));
    // The chain: one transfer; the service: one order for the key's energy.
    expect([...paid(mock, s.address).entries()]).toEqual([[to, { count: 1, atomic: 3_500_000n }]]);
    expect(ordersOf(mock, acct.accountId).filter((o) => o.target_address === s.address)).toHaveLength(1);
  });

  it('the CLI: `trx-rent send usdt --store postgres://…` twice at once with one key, separate config directories: one signature', async () => {
    const s = sender(mock, 0x3b);
    giveResources(s.address);
    const acct = account(mock);
    const to = labelAddress('cli one key two runs');
    const store = `${pg.url}?schema=transfers_cli`;
    const run = (host: string) =>
      runCliInProcess(['send', 'usdt', '--to', to, '--amount', '2.5', '--idempotency-key', 'cli-invoice-7', '--store', store, '--yes', '--json'], {
        env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url, TRX_RENT_PRIVATE_KEY: s.privateKey },
        configDir: mkdtempSync(join(tmpdir(), `${host}-`)),
        timeoutMs: 90_000,
      });
    const [a, b] = await Promise.all([run('cli-a'), run('cli-b')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).tx_id).toBe(JSON.parse(a.stdout).tx_id);
    expect(paid(mock, s.address).get(to)?.count).toBe(1);
    for (const r of [a, b]) expect(r.stdout + r.stderr).not.toContain(pg.password);
  });

  it('for contrast, two hosts on separate file stores with one key sign twice', async () => {
    const s = sender(mock, 0x3a);
    // Energy and bandwidth enough for both already on the sender: neither host rents, so the
    // contrast is the signing alone.
    giveResources(s.address);
    const acct = account(mock);
    const keyFile = join(dir, 'key2');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const to = labelAddress('one key two hosts on files');
    const [a, b] = (await Promise.all(
      ['host-a', 'host-b'].map((host) => send([acct.apiKey, mkdtempSync(join(tmpdir(), `${host}-`)), mock.url, keyFile, to, '1.5', 'pay-invoice-40'])),
    )) as [{ tx_id?: string }, { tx_id?: string }];
    expect(a.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tx_id).not.toBe(a.tx_id);
    expect(paid(mock, s.address).get(to)?.count).toBe(2);
  });
});
