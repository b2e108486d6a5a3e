/**
 * The Store contract, run against every backend: memory, file and PostgreSQL (a real server,
 * started for this file by test/helpers/postgres.ts). What one instance appends another reads;
 * one holder at a time; exclusive sections see everything (read-then-append from many instances
 * never loses or repeats a number); records come back as written; and across processes (file and
 * PostgreSQL): six processes holding at once get one holder, two appending under the lock
 * interleave whole records only. The worker is bundled from the source with esbuild and run by
 * plain node.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/types.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trx-rent-contract-'));

/**
 * `hold SPEC NAME MS` or `append SPEC NAME N TAG`: as test/store/journal.test.ts's worker, for
 * any store. Bundled inside the repository (.tmp/) so that it finds `pg` in node_modules.
 */
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const WORKER = join(mkdtempSync(join(ROOT, '.tmp', 'contract-')), 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { openStore } from ${JSON.stringify(join(ROOT, 'src/store/open.ts'))};
const [mode, spec, name, a, tag] = process.argv.slice(2);
const store = await openStore(spec);
const j = await store.journal(name);
if (mode === 'hold') {
  try { await j.hold(); console.log('held'); await new Promise((r) => setTimeout(r, Number(a))); }
  catch (e) { console.log(e.code === 'JOURNAL_LOCKED' ? 'locked' : 'error ' + e.message); }
} else {
  for (let i = 0; i < Number(a); i++) await j.exclusive(async () => { await j.read(); await j.append([{ tag, i, pad: 'x'.repeat(200) }]); });
  console.log('appended');
}
await j.close();
await store.close();
`,
);
buildSync({ entryPoints: [join(dir, 'worker.ts')], bundle: true, platform: 'node', format: 'esm', outfile: WORKER, logLevel: 'error', external: ['pg'] });

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', () => {
      clearTimeout(timer);
      out.trim() ? resolve(out.trim()) : reject(new Error(err));
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

let n = 0;
/** A fresh name per test, so tests on one store do not see each other's records. */
const fresh = (what: string) => `${what}-${++n}`;

const BACKENDS: { kind: string; spec: () => string; crossProcess: boolean }[] = [
  { kind: 'memory', spec: () => 'memory', crossProcess: false },
  { kind: 'file', spec: () => join(dir, 'files'), crossProcess: true },
  { kind: 'postgres', spec: () => `${pg.url}?schema=contract`, crossProcess: true },
];

describe.each(BACKENDS)('the $kind store', { timeout: 120_000 }, ({ kind, spec, crossProcess }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(spec());
  });
  afterAll(async () => {
    await store?.close();
  });

  it('is the kind it says', () => {
    expect(store.kind).toBe(kind);
  });

  it('reads what another instance appended; a second holder is refused until the first closes', async () => {
    const name = fresh('one');
    const a = await store.journal(name);
    const b = await store.journal(name);
    await a.hold();
    await a.append([{ n: 1 }]);
    expect(await b.read()).toEqual([{ n: 1 }]);
    expect(await b.read()).toEqual([]);
    await expect(b.hold()).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
    await a.close();
    await b.hold();
    await b.append([{ n: 2 }]);
    expect(await b.read()).toEqual([{ n: 2 }]);
    await b.close();
  });

  it('gives records back as they were written, in order', async () => {
    const name = fresh('round-trip');
    const j = await store.journal(name);
    const records = [
      { type: 'record', amount_sun: '123456789012345678901234567890', nested: { list: [1, 2.5, null, true], text: 'ünïcødé ✓ "quoted" \\ back' } },
      { type: 'delete', key: 'k'.repeat(300), empty: {}, zero: 0, negative: -1 },
      { big: 'p'.repeat(256 * 1024) },
    ];
    await j.exclusive(() => j.append(records));
    await j.append([{ after: 1 }]);
    const k = await store.journal(name);
    expect(await k.read()).toEqual([...records, { after: 1 }]);
    expect(k.size()).toBeGreaterThan(0);
    await j.close();
    await k.close();
  });

  it('exclusive sections see everything: read-then-append from four instances numbers 1..80 with no gap or repeat', async () => {
    const name = fresh('counter');
    const journals = await Promise.all(Array.from({ length: 4 }, () => store.journal<{ n: number }>(name)));
    const last = new Map<object, number>();
    await Promise.all(
      journals.map(async (j) => {
        for (let i = 0; i < 20; i++) {
          await j.exclusive(async () => {
            let top = last.get(j) ?? 0;
            for (const r of await j.read()) top = r.n;
            await j.append([{ n: top + 1 }]);
            last.set(j, top + 1);
          });
        }
      }),
    );
    const all = await (await store.journal<{ n: number }>(name)).read();
    expect(all.map((r) => r.n)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (const j of journals) await j.close();
  });

  it.runIf(crossProcess)('six processes holding one journal at once: exactly one holds it', async () => {
    const name = fresh('six');
    const answers = await Promise.all(Array.from({ length: 6 }, () => run(['hold', spec(), name, '2500'])));
    expect(answers.filter((a) => a === 'held')).toHaveLength(1);
    expect(answers.filter((a) => a === 'locked')).toHaveLength(5);
  });

  it.runIf(crossProcess)('two processes appending under the lock: every record whole, none lost', async () => {
    const name = fresh('shared');
    expect(await Promise.all([run(['append', spec(), name, '40', 'a']), run(['append', spec(), name, '40', 'b'])])).toEqual(['appended', 'appended']);
    const records = (await (await store.journal<{ tag: string; i: number }>(name)).read()) as { tag: string; i: number }[];
    expect(records).toHaveLength(80);
    for (const tag of ['a', 'b']) expect(records.filter((r) => r.tag === tag).map((r) => r.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
