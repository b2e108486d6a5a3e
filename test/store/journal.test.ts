/**
 * The one journal primitive (src/store), from outside the process where it matters: six
 * processes opening one journal at once get one holder; two processes appending under the lock
 * interleave whole records only; the memory store shares records and refuses a second holder.
 * The worker is bundled from the source with esbuild and run by plain node.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/store/memory.js';
import { openJournalFile } from '../../src/store/file.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trx-rent-store-'));

/**
 * A worker script: `hold PATH MS` (take the journal, keep it MS, print held/locked), `append PATH
 * N TAG` (N records, each in an exclusive section), `plain PATH N TAG` (N records of 1 MB, no
 * section) or `reader PATH MS` (read in exclusive sections for MS).
 */
const WORKER = join(dir, 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { openJournalFile } from ${JSON.stringify(join(ROOT, 'src/store/file.ts'))};
const [mode, path, a, tag] = process.argv.slice(2);
const j = await openJournalFile(path);
if (mode === 'hold') {
  try { await j.hold(); console.log('held'); await new Promise((r) => setTimeout(r, Number(a))); }
  catch (e) { console.log(e.code === 'JOURNAL_LOCKED' ? 'locked' : 'error ' + e.message); }
} else if (mode === 'plain') {
  // Appends outside any exclusive section (as a transfer store's delete is), 1 MB each.
  for (let i = 0; i < Number(a); i++) await j.append([{ tag, i, pad: 'p'.repeat(1024 * 1024) }]);
  console.log('appended');
} else if (mode === 'reader') {
  // A lock holder reading over and over while others write: it must never cut a write in flight.
  const until = Date.now() + Number(a);
  let n = 0;
  while (Date.now() < until) n += await j.exclusive(async () => (await j.read()).length);
  console.log('read ' + n);
} else {
  for (let i = 0; i < Number(a); i++) await j.exclusive(async () => { await j.read(); await j.append([{ tag, i, pad: 'x'.repeat(200) }]); });
  console.log('appended ' + (await openJournalFile(path).then((k) => k.read())).length);
}
await j.close();
`,
);
buildSync({ entryPoints: [join(dir, 'worker.ts')], bundle: true, platform: 'node', format: 'esm', outfile: WORKER, logLevel: 'error' });

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', () => {
      clearTimeout(timer);
      out.trim() ? resolve(out.trim()) : reject(new Error(err));
    });
  });
}

describe('a file journal across processes', { timeout: 60_000 }, () => {
  it('six processes opening one journal at once: exactly one holds it', async () => {
    const path = join(dir, 'six.journal');
    const answers = await Promise.all(Array.from({ length: 6 }, () => run(['hold', path, '1500'])));
    expect(answers.filter((a) => a === 'held')).toHaveLength(1);
    expect(answers.filter((a) => a === 'locked')).toHaveLength(5);
  });

  it('two processes appending under the lock: every record whole, none lost', async () => {
    const path = join(dir, 'shared.journal');
    await Promise.all([run(['append', path, '40', 'a']), run(['append', path, '40', 'b'])]);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(80);
    const records = lines.map((l) => JSON.parse(l) as { tag: string; i: number });
    for (const tag of ['a', 'b']) expect(records.filter((r) => r.tag === tag).map((r) => r.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('a lock holder reading while other processes write large records outside any section never cuts a write', async () => {
    const path = join(dir, 'plain.journal');
    const [, , reader] = await Promise.all([run(['plain', path, '30', 'a']), run(['plain', path, '30', 'b']), run(['reader', path, '3000'])]);
    expect(reader).toMatch(/^read \d+$/);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const records = lines.map((l) => JSON.parse(l) as { tag: string; i: number });
    for (const tag of ['a', 'b']) expect(records.filter((r) => r.tag === tag).map((r) => r.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});

describe('a file journal in one process', () => {
  // Found by the payouts chaos test: a holder's read saw its own write half done, took it for a
  // crash's torn line and cut it off; the row's signed record was lost and a resume paid it twice.
  it('a holder reading while its own large write is in flight keeps the write', async () => {
    const path = join(dir, 'inflight.journal');
    const notices: string[] = [];
    const j = await openJournalFile(path, { onNotice: (n) => notices.push(n.message) });
    await j.hold();
    const seen: unknown[] = [];
    for (let round = 0; round < 60; round++) {
      const written = j.append([{ round, pad: 'a'.repeat(256 * 1024) }]);
      let reading = true;
      const reader = (async () => {
        while (reading) {
          seen.push(...(await j.read()));
          await new Promise((r) => setImmediate(r));
        }
      })();
      await written;
      reading = false;
      await reader;
    }
    seen.push(...(await j.read()));
    await j.close();
    expect(notices).toEqual([]);
    expect(seen.map((r) => (r as { round: number }).round)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(60);
  });

  it('the torn end a crash left is cut off by the next writer, holder or not, and reported', async () => {
    const path = join(dir, 'torn.journal');
    writeFileSync(path, '{"n":1}\n{"n":2,"pad":"cut sh', { mode: 0o600 });
    const notices: string[] = [];
    const j = await openJournalFile(path, { onNotice: (n) => notices.push(n.message) });
    expect(await j.read()).toEqual([{ n: 1 }]); // not a holder: the end may be a write in flight
    expect(notices).toEqual([]);
    await j.append([{ n: 3 }]);
    expect(notices).toEqual([expect.stringMatching(/cut short by a crash \(\d+ bytes\)/)]);
    expect(await j.read()).toEqual([{ n: 3 }]);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
    await j.close();
  });

  it('reads what another instance appended; a second holder is refused until the first closes', async () => {
    const path = join(dir, 'one.journal');
    const a = await openJournalFile(path);
    const b = await openJournalFile(path);
    await a.hold();
    await a.append([{ n: 1 }]);
    expect(await b.read()).toEqual([{ n: 1 }]);
    await expect(b.hold()).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
    await a.close();
    await b.hold();
    await b.close();
  });
});

describe('the memory store', () => {
  it('shares a journal by name and refuses a second holder', async () => {
    const store = memoryStore();
    const a = await store.journal('j');
    const b = await store.journal('j');
    await a.hold();
    await a.append([{ n: 1 }]);
    expect(await b.read()).toEqual([{ n: 1 }]);
    await expect(b.hold()).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
    await a.close();
    await b.hold();
  });
});
