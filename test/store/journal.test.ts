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

/** A worker script: `hold PATH MS` (take the journal, keep it MS, print held/locked) or `append PATH N TAG` (N records, each under the lock). */
const WORKER = join(dir, 'worker.mjs');
writeFileSync(
  join(dir, 'worker.ts'),
  `import { openJournalFile } from ${JSON.stringify(join(ROOT, 'src/store/file.ts'))};
const [mode, path, a, tag] = process.argv.slice(2);
const j = await openJournalFile(path);
if (mode === 'hold') {
  try { await j.hold(); console.log('held'); await new Promise((r) => setTimeout(r, Number(a))); }
  catch (e) { console.log(e.code === 'JOURNAL_LOCKED' ? 'locked' : 'error ' + e.message); }
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
});

describe('a file journal in one process', () => {
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
