/**
 * The payout journal file: a second runner on one journal is refused while the first lives, a
 * lock left by a killed runner is taken over, a last line cut short by a crash is dropped and
 * reported, a damaged line elsewhere is refused, and one file has one lock whatever its name; rows and CSV/JSONL
 * checks report every bad row at once.
 */
import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPayoutJournal } from '../../src/workflows/payouts/journal.js';
import { checkPayouts, parsePayouts } from '../../src/workflows/payouts/index.js';

const dir = () => mkdtempSync(join(tmpdir(), 'payouts-journal-'));
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const OTHER = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

/** The lock file a process leaves: its owner as JSON (pid, host), written atomically. */
const ownerOf = (pid: number) => JSON.stringify({ pid, host: hostname(), at: 1 });

describe('the journal file', () => {
  it('refuses a second runner while the first holds the lock, and is released by close', async () => {
    const path = join(dir(), 'j');
    const first = await openPayoutJournal(path);
    await first.append({ type: 'run', state: 'started', at: 1 });
    const second = await openPayoutJournal(path).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'JOURNAL_LOCKED' });
    await first.close();
    const third = await openPayoutJournal(path);
    expect(third.entries()).toEqual([{ type: 'run', state: 'started', at: 1 }]);
    await third.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a lock held by another live process refuses; one left by a dead process is taken over; an unreadable one is refused', async () => {
    const path = join(dir(), 'j');
    const other = spawn('sleep', ['10']);
    try {
      writeFileSync(`${path}.lock`, ownerOf(other.pid!));
      expect(await openPayoutJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_LOCKED', details: { pid: other.pid } });
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((r) => other.on('close', r));
    const taken = await openPayoutJournal(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await taken.close();
    // An empty lock file is never made by a runner (the owner is written before the lock's name exists): it is not taken over.
    writeFileSync(`${path}.lock`, '');
    expect(await openPayoutJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_LOCKED' });
  });

  it('a torn last line is dropped and reported, and the next entry starts on its own line; a damaged middle line is refused naming it', async () => {
    const path = join(dir(), 'j');
    writeFileSync(path, '{"type":"run","state":"started","at":1}\n{"type":"confirm');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const journal = await openPayoutJournal(path);
      expect(journal.entries()).toHaveLength(1);
      await journal.append({ type: 'run', state: 'stopped', at: 2 });
      await journal.close();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.join('\n')).toMatch(/line 2 was cut short by a crash/);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(JSON.parse(lines[1]!)).toEqual({ type: 'run', state: 'stopped', at: 2 });
    writeFileSync(path, '{"type":"run","state":"started","at":1}\nnot json\n{"type":"run","state":"stopped","at":2}\n');
    expect(await openPayoutJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_CORRUPT', details: { line: 2 } });
  });

  it('one lock per real file: a symlink to the journal and a second hard link are refused', async () => {
    const d = dir();
    const path = join(d, 'j');
    const first = await openPayoutJournal(path);
    await first.append({ type: 'run', state: 'started', at: 1 });
    symlinkSync(path, join(d, 'alias'));
    expect(await openPayoutJournal(join(d, 'alias')).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_UNSAFE' });
    // Another name for the same folder resolves to the same lock.
    symlinkSync(d, `${d}-link`);
    expect(await openPayoutJournal(join(`${d}-link`, 'j')).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_LOCKED' });
    await first.close();
    linkSync(path, join(d, 'hard'));
    expect(await openPayoutJournal(join(d, 'hard')).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_UNSAFE' });
    expect(await openPayoutJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_UNSAFE' });
  });
});

describe('rows', () => {
  it('reads CSV with or without a header, and JSON lines', () => {
    expect(parsePayouts(`${ADDRESS},10,a\n${OTHER},0.5\n`).payouts).toEqual([
      { to: ADDRESS, amount: '10', id: 'a' },
      { to: OTHER, amount: '0.5' },
    ]);
    expect(parsePayouts(`amount,to\n10,${ADDRESS}\n`).payouts).toEqual([{ to: ADDRESS, amount: '10' }]);
    const jsonl = parsePayouts(`{"to":"${ADDRESS}","amount":"1","id":"x"}\n\n{"to":"${OTHER}","amount":2}\n`);
    expect(jsonl.payouts).toEqual([
      { to: ADDRESS, amount: '1', id: 'x' },
      { to: OTHER, amount: 2 },
    ]);
    expect(jsonl.where).toEqual(['line 1', 'line 3']);
  });

  it('reports every bad row at once; duplicates refused unless allowed', () => {
    const rows = [
      { to: ADDRESS, amount: '1' },
      { to: 'Tbad', amount: '1' },
      { to: ADDRESS, amount: '1.0000001' },
      { to: ADDRESS, amount: '0' },
      { to: ADDRESS, amount: '1' },
      { to: OTHER, amount: '2', id: '1' },
    ];
    const error = (() => {
      try {
        checkPayouts(rows);
      } catch (e) {
        return e as { details: { rows: Array<{ where: string; field: string }> } };
      }
    })();
    expect(error?.details.rows.map((r) => `${r.where} ${r.field}`)).toEqual(['row 2 to', 'row 3 amount', 'row 4 amount', 'row 5 row', 'row 6 id']);
    expect(
      checkPayouts(
        [
          { to: ADDRESS, amount: '1' },
          { to: ADDRESS, amount: '1' },
        ],
        { allowDuplicates: true },
      ),
    ).toHaveLength(2);
  });
});
