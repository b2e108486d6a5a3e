/**
 * Payouts across workers on two "hosts": each worker process runs in a network namespace of its
 * own with a hostname of its own (test/helpers/netns.ts), reaching the PostgreSQL server and the
 * mock over its veth pair, as a worker on another machine would (this machine's loopback is out
 * of its reach). One host's worker is SIGKILLed mid-batch and started again there. The judge is
 * the chain (every row paid once); the store shows the rows were claimed from both hostnames,
 * and the server saw connections from both namespaces' addresses (`pg_stat_activity`).
 * Where namespaces cannot be made (not root, no CAP_NET_ADMIN, not Linux) the test is skipped,
 * its name saying why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { type NetHosts, makeNetHosts, netnsUnavailable } from '../helpers/netns.js';
import { buildPayoutWorker, workerEnv } from '../helpers/payout-worker.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { account, paid, payouts, sender } from './payouts-helpers.js';

const ROWS = 60;
const LEASE_MS = 1_500;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const unavailable = netnsUnavailable();

let net: NetHosts | undefined;
let pg: PgServer | undefined;
let mock: MockServer | undefined;
beforeAll(async () => {
  if (unavailable) return;
  net = makeNetHosts(2, ['payout-host-a', 'payout-host-b']);
  [pg, mock] = await Promise.all([
    startPostgres({ listen: [net.serverAddress], allow: [net.cidr] }),
    startMockServer({ host: net.serverAddress, seed: 3913, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
  net?.close();
}, 120_000);

describe('payouts across workers in separate network namespaces', { timeout: 5 * 60_000 }, () => {
  // Where they cannot be made, the skip says why (in the run's list of skipped tests).
  if (unavailable) it.skip(`needs network namespaces, unavailable here: ${unavailable}`, () => {});

  it.skipIf(unavailable !== undefined)(
    'two hosts over veth pairs, one worker killed and started again: every row paid once, claimed from both hosts',
    async () => {
      const { hosts, serverAddress } = net!;
      mkdirSync(join(ROOT, '.tmp'), { recursive: true });
      const dir = mkdtempSync(join(ROOT, '.tmp', 'payouts-pg-netns-'));
      const worker = buildPayoutWorker(dir);
      const s = sender(mock!, 59);
      const rows = payouts(mock!, ROWS, 'pg-netns');
      const acct = account(mock!, '1000000');
      const keyFile = join(dir, 'key');
      writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
      const rowsFile = join(dir, 'rows.json');
      writeFileSync(rowsFile, JSON.stringify(rows));
      // The workers' addresses: the server's over the veth pairs, never 127.0.0.1 (not theirs to reach).
      const storeUrl = `postgres://trx:${pg!.password}@${serverAddress}:${pg!.port}/postgres?schema=netns`;
      expect(mock!.url).toContain(serverAddress);
      const name = 'payouts-netns';
      const args = [process.execPath, worker, mock!.url, keyFile, rowsFile, name, String(LEASE_MS)];

      let confirmed = 0;
      const exits: Array<{ host: string; code: number | null; signal: NodeJS.Signals | null; stderr: string }> = [];
      const start = (host: (typeof hosts)[number]) => {
        const { cmd, args: argv } = host.command(args);
        // Plain http to the mock over the veth pair: a network inside this machine.
        const env = workerEnv(acct.apiKey, storeUrl, { TRX_RENT_TEST_ALLOW_INSECURE_HTTP: '1' });
        const child: ChildProcess = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
        let stderr = '';
        child.stdout!.on(
          'data',
          (d: Buffer) =>
            (confirmed += d
              .toString()
              .split('\n')
              .filter((l) => l.startsWith('confirmed ')).length),
        );
        child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4_000)));
        const exited = new Promise<void>((resolve) =>
          child.on('close', (code, signal) => {
            exits.push({ host: host.hostname, code, signal, stderr });
            resolve();
          }),
        );
        return { child, exited };
      };

      // Who the server sees connected, sampled while the batch runs.
      const store = postgresStore(`${pg!.url}?schema=netns`);
      await store.migrate();
      const clients = new Set<string>();
      let sampling = true;
      const sampler = (async () => {
        for (let i = 0; sampling && i < 6_000; i++) {
          const found = await store
            .withClient(async (c) => (await c.query(`SELECT DISTINCT host(client_addr) AS a FROM pg_stat_activity WHERE client_addr IS NOT NULL`)).rows)
            .catch(() => []);
          for (const r of found) clients.add(r.a as string);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();

      const a = start(hosts[0]!);
      const b = start(hosts[1]!);
      for (let i = 0; i < 2_400 && confirmed < ROWS / 3; i++) await new Promise((r) => setTimeout(r, 50));
      a.child.kill('SIGKILL');
      await a.exited;
      const again = start(hosts[0]!);
      await Promise.all([b.exited, again.exited]);
      sampling = false;
      await sampler;

      const summary = exits.map((e) => `${e.host}: ${e.signal ?? e.code} ${e.stderr.slice(-800)}`).join('\n---\n');
      expect(exits.filter((e) => e.code === 0).length, summary).toBe(2);
      const chain = paid(mock!, s.address);
      for (const r of rows) expect(chain.get(r.to)?.count, `row ${r.id}\n${summary}`).toBe(1);
      expect([...chain.values()].reduce((n, e) => n + e.count, 0)).toBe(ROWS);
      const [claims] = await store.withClient(
        async (c, schema) =>
          (
            await c.query(
              `SELECT count(*) FILTER (WHERE state = 'done')::int AS done, array_agg(DISTINCT holder_host ORDER BY holder_host) AS hosts
             FROM ${schema}.row_claims WHERE journal = $1`,
              [name],
            )
          ).rows,
      );
      expect(claims).toEqual({ done: ROWS, hosts: ['payout-host-a', 'payout-host-b'] });
      for (const h of hosts) expect([...clients], summary).toContain(h.address);
      await store.close();
    },
  );
});
