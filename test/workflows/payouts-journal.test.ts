/**
 * The payout journal file: a second runner on one journal is refused while the first lives, a
 * lock left by a killed runner is taken over, a last line cut short by a crash is ignored (and
 * the next entry starts on its own line), a damaged line elsewhere is refused; rows and CSV/JSONL
 * checks report every bad row at once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileJournal } from '../../src/workflows/payouts/file-journal.js';
import { checkPayouts, parsePayouts } from '../../src/workflows/payouts/index.js';

const dir = () => mkdtempSync(join(tmpdir(), 'payouts-journal-'));
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const OTHER = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

describe('the journal file', () => {
  it('refuses a second runner while the first holds the lock, and is released by close', async () => {
    const path = join(dir(), 'j');
    const first = await openFileJournal(path);
    await first.append({ type: 'run', state: 'started', at: 1 });
    const second = await openFileJournal(path).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'JOURNAL_LOCKED' });
    await first.close();
    const third = await openFileJournal(path);
    expect(third.entries()).toEqual([{ type: 'run', state: 'started', at: 1 }]);
    await third.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a lock held by another live process refuses; one left by a dead process is taken over', async () => {
    const path = join(dir(), 'j');
    const other = spawn('sleep', ['10']);
    try {
      writeFileSync(`${path}.lock`, `${other.pid}\n`);
      expect(await openFileJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_LOCKED', details: { pid: other.pid } });
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((r) => other.on('close', r));
    const taken = await openFileJournal(path);
    expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await taken.close();
  });

  it('a torn last line is ignored and the next entry starts on its own line; a damaged middle line is refused', async () => {
    const path = join(dir(), 'j');
    writeFileSync(path, '{"type":"run","state":"started","at":1}\n{"type":"confirm');
    const journal = await openFileJournal(path);
    expect(journal.entries()).toHaveLength(1);
    await journal.append({ type: 'run', state: 'stopped', at: 2 });
    await journal.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(JSON.parse(lines[2]!)).toEqual({ type: 'run', state: 'stopped', at: 2 });
    writeFileSync(path, '{"type":"run","state":"started","at":1}\nnot json\n{"type":"run","state":"stopped","at":2}\n');
    expect(await openFileJournal(path).catch((e: unknown) => e)).toMatchObject({ code: 'JOURNAL_CORRUPT' });
  });
});

describe('rows', () => {
  it('reads CSV with or without a header, and JSON lines', () => {
    expect(parsePayouts(`${ADDRESS},10,a\n${OTHER},0.5\n`).payouts).toEqual([{ to: ADDRESS, amount: '10', id: 'a' }, { to: OTHER, amount: '0.5' }]);
    expect(parsePayouts(`amount,to\n10,${ADDRESS}\n`).payouts).toEqual([{ to: ADDRESS, amount: '10' }]);
    const jsonl = parsePayouts(`{"to":"${ADDRESS}","amount":"1","id":"x"}\n\n{"to":"${OTHER}","amount":2}\n`);
    expect(jsonl.payouts).toEqual([{ to: ADDRESS, amount: '1', id: 'x' }, { to: OTHER, amount: 2 }]);
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
    expect(checkPayouts([{ to: ADDRESS, amount: '1' }, { to: ADDRESS, amount: '1' }], { allowDuplicates: true })).toHaveLength(2);
  });
});
