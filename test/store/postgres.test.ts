/**
 * What only the PostgreSQL store has, against a real server (test/helpers/postgres.ts): the
 * password never printed; migrations (a dry run changes nothing, two stores migrating at once
 * migrate once, a newer schema is refused); a holder stalled past its lease (SIGSTOP, a separate
 * process) cannot write its late record once another took over (the fencing token refuses it);
 * a server restart loses nothing and the store goes on.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/store/postgres.js';
import { maskPostgresUrl } from '../../src/store/postgres-url.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'pg-store-'));

/** `stall URL NAME LEASE_MS`: hold, print `held`, and on each stdin line append one record and print `appended` or the error's code. */
const WORKER = join(dir, 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { postgresStore } from ${JSON.stringify(join(ROOT, 'src/store/postgres.ts'))};
import { createInterface } from 'node:readline';
const [, url, name, lease] = process.argv.slice(1);
const store = postgresStore(url, { leaseMs: Number(lease) });
const j = await store.journal(name);
await j.hold();
console.log('held ' + j.token);
for await (const line of createInterface({ input: process.stdin })) {
  try { await j.append([{ late: line }]); console.log('appended'); } catch (e) { console.log(e.code ?? e.message); }
}
`,
);
buildSync({ entryPoints: [join(dir, 'worker.ts')], bundle: true, platform: 'node', format: 'esm', outfile: WORKER, logLevel: 'error' });

/** Lines a child prints, one at a time. */
function lines(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout.on('data', (d) => {
    buffer += d;
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
      else queue.push(line);
      nl = buffer.indexOf('\n');
    }
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return () =>
    queue.length
      ? Promise.resolve(queue.shift()!)
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no line from the worker in 30 s: ${err}`)), 30_000);
          waiting.push((line) => {
            clearTimeout(timer);
            resolve(line);
          });
        });
}

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
}, 120_000);

describe('the PostgreSQL store', { timeout: 120_000 }, () => {
  it("an exclusive section waits in the server's queue for another holder: refused after its wait, entered once the other lets go", async () => {
    const store = postgresStore(pg.url, { schema: 'queue' });
    const [a, b] = [await store.journal('q'), await store.journal('q')];
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = a.exclusive(async () => {
      entered();
      await held;
    });
    await inside;
    // A wait of two slices (the server's lock_timeout is given a second at a time) runs out.
    await expect(b.exclusive(async () => 'entered', { waitMs: 1_500 })).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
    const second = b.exclusive(async () => 'entered', { waitMs: 20_000 });
    letGo();
    await first;
    expect(await second).toBe('entered');
    // The connections are sound after a wait that ran out: the journal still reads and writes.
    await b.append([{ type: 'after' }]);
    expect(await a.read()).toEqual([{ type: 'after' }]);
    await Promise.all([a.close(), b.close()]);
    await store.close();
  });

  it('never prints the password: where, journal names and refusals show it masked', async () => {
    const store = postgresStore(pg.url, { schema: 'masked' });
    expect(store.where).toBe(`postgres://trx:***@127.0.0.1:${pg.port}/postgres?schema=masked`);
    const a = await store.journal('j');
    const b = await store.journal('j');
    await a.hold();
    const refusal = await b.hold().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(refusal).toMatchObject({ code: 'JOURNAL_LOCKED' });
    for (const text of [store.where, a.name, refusal!.message, JSON.stringify(refusal)]) expect(text).not.toContain(pg.password);
    expect(maskPostgresUrl('postgresql://u:secret@h/db?password=other')).toBe('postgresql://u:***@h/db?password=***');
    await a.close();
    await store.close();
  });

  it('migrates: a dry run changes nothing, two stores at once migrate once, a newer schema is refused', async () => {
    const one = postgresStore(pg.url, { schema: 'migrations' });
    const dry = await one.migrate({ dryRun: true });
    expect(dry).toMatchObject({ from: 0, to: 0, dryRun: true, pending: [{ version: 1 }, { version: 2 }] });
    const exists = await one.withClient(
      async (c) => (await c.query(`SELECT to_regclass('migrations.schema_migrations') IS NOT NULL AS present`)).rows[0]!.present,
    );
    expect(exists).toBe(false);
    const two = postgresStore(pg.url, { schema: 'migrations' });
    const [a, b] = await Promise.all([one.migrate(), two.migrate()]);
    expect([a.pending.length, b.pending.length].sort()).toEqual([0, 2]);
    expect(await one.migrate({ dryRun: true })).toMatchObject({ from: 2, to: 2, pending: [] });
    await one.withClient((c) => c.query(`INSERT INTO migrations.schema_migrations (version, name) VALUES (99, 'from the future')`));
    const three = postgresStore(pg.url, { schema: 'migrations' });
    await expect(three.journal('x')).rejects.toMatchObject({ code: 'STORE_TOO_NEW' });
    await Promise.all([one.close(), two.close(), three.close()]);
  });

  it('a holder stalled past its lease cannot write once another took over: the fencing token refuses it', async () => {
    const url = `${pg.url}?schema=fencing`;
    const child = spawn(process.execPath, [WORKER, url, 'stalled', '600'], { stdio: ['pipe', 'pipe', 'pipe'], cwd: ROOT });
    const next = lines(child);
    try {
      expect(await next()).toBe('held 1');
      child.stdin.write('before\n');
      expect(await next()).toBe('appended');
      child.kill('SIGSTOP');
      const store = postgresStore(url, { leaseMs: 600 });
      const other = await store.journal('stalled');
      // While the lease runs (the stalled holder renewed it last), the journal is taken.
      await expect(other.hold()).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
      let taken = false;
      for (let i = 0; i < 100 && !taken; i++) {
        await new Promise((r) => setTimeout(r, 100));
        taken = await other.hold().then(
          () => true,
          () => false,
        );
      }
      expect(taken).toBe(true);
      expect((other as { token?: string }).token).toBe('2');
      await other.append([{ by: 'the new holder' }]);
      child.kill('SIGCONT');
      child.stdin.write('late\n');
      expect(await next()).toBe('JOURNAL_FENCED');
      expect((await (await store.journal('stalled')).read()).map((r) => Object.values(r)[0])).toEqual(['before', 'the new holder']);
      await other.close();
      await store.close();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a connection dropped inside an exclusive section: its next write fails, the lock goes with it, nothing half-written', async () => {
    const store = postgresStore(pg.url, { schema: 'dropped' });
    const admin = postgresStore(pg.url, { schema: 'dropped' });
    const j = await store.journal('d');
    const other = await admin.journal('d');
    const error = await j
      .exclusive(async () => {
        await j.append([{ n: 1 }]);
        // Another session ends this section's connection (as a network cut or an admin would).
        await admin.withClient((c) =>
          c.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'trx-rent' AND pid <> pg_backend_pid() AND state <> 'active'`,
          ),
        );
        await j.append([{ n: 2, pad: 'x'.repeat(100_000) }]);
      })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(Error);
    // The lock went with the connection: another section gets it at once and sees only the whole first record.
    const seen = await other.exclusive(() => other.read(), { waitMs: 5_000 });
    expect(seen).toEqual([{ n: 1 }]);
    // The same journal instance goes on with a new connection.
    await j.exclusive(() => j.append([{ n: 3 }]));
    expect(await other.read()).toEqual([{ n: 3 }]);
    await Promise.all([store.close(), admin.close()]);
  });

  it('a server restart loses nothing, and the same store goes on after it', async () => {
    const store = postgresStore(pg.url, { schema: 'restart' });
    const j = await store.journal('r');
    await j.exclusive(() => j.append([{ n: 1 }, { n: 2 }]));
    await pg.restart();
    // The first query may meet a connection the restart closed: it fails, the next opens a new one.
    let appended = false;
    for (let i = 0; i < 5 && !appended; i++) {
      appended = await j.append([{ n: 3 }]).then(
        () => true,
        () => false,
      );
    }
    expect(appended).toBe(true);
    const k = await store.journal('r');
    expect(await k.read()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await store.close();
  });
});
