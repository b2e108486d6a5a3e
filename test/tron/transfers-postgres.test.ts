/**
 * `transfers.send` with the PostgreSQL store: one key, two processes, one signature. Two
 * separate Node processes (the worker is bundled from the source with esbuild), each with its
 * own client on `new TrxRent({ store: 'postgres://…' })`, send the same transfer with the same
 * idempotency key at the same moment; the transfer protocol signs inside the store's exclusive
 * section after reading again, so one signs and the other lands the first's transaction. The
 * judge is the mock's chain: one transfer from the sender; both processes report its tx id; the
 * store holds one record for the key. Then the same pair on separate file stores (separate
 * config directories, as two hosts would be) for contrast: two signatures.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { account, paid, sender } from '../workflows/payouts-helpers.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import { runCliInProcess } from '../cli/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'transfers-pg-'));

/** `BASE_URL API_KEY STORE KEY_FILE TO AMOUNT IDEMPOTENCY_KEY`: send once, print `{ tx_id }` or `{ error }`. */
const WORKER = join(dir, 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { readFileSync } from 'node:fs';
import { TrxRent } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
const [baseUrl, apiKey, store, keyFile, to, amount, idempotencyKey] = process.argv.slice(2);
const client = new TrxRent({ baseUrl, apiKey, tronNode: baseUrl, store, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
try {
  const sent = await client.transfers.send({ token: 'USDT', to, amount, signer: { privateKey: readFileSync(keyFile, 'utf8').trim() }, idempotencyKey });
  console.log(JSON.stringify({ tx_id: sent.tx_id }));
} catch (e) {
  console.log(JSON.stringify({ error: e.code ?? e.message, message: e.message }));
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

function send(args: string[]): Promise<{ tx_id?: string; error?: string; message?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
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
    // The sender has the energy already: the two processes race to sign, not to rent. (Renting,
    // the one that finds no record yet waits for a delegation the other's transfer used up, until
    // its timeout: a known liveness gap, never a second payment.)
    giveResources(s.address);
    const acct = account(mock);
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const to = labelAddress('one key two processes');
    const store = `${pg.url}?schema=transfers`;
    const args = [mock.url, acct.apiKey, store, keyFile, to, '7.25', 'pay-invoice-39'];
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
      ['host-a', 'host-b'].map((host) => send([mock.url, acct.apiKey, mkdtempSync(join(tmpdir(), `${host}-`)), keyFile, to, '1.5', 'pay-invoice-40'])),
    )) as [{ tx_id?: string }, { tx_id?: string }];
    expect(a.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.tx_id).not.toBe(a.tx_id);
    expect(paid(mock, s.address).get(to)?.count).toBe(2);
  });
});
