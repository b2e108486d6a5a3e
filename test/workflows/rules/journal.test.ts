/**
 * The rules journal over the store's journal file: appends are durable lines; a torn last line is
 * dropped and reported, never glued to the next; damage anywhere else is JOURNAL_CORRUPT naming the line.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { JournalNotice } from '../../../src/store/types.js';
import { FileJournal, actionsOf, parseJournal, readJournalFile } from '../../../src/workflows/rules/index.js';

describe('FileJournal', () => {
  it('appends one line per entry, reads them back on open, drops and reports a torn last line', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rules-journal-')), 'sub', 'j.jsonl');
    const a = new FileJournal(path);
    await Promise.all([
      a.append({ ts: 1, kind: 'intent', rule: 'r', key: 'k1', reserved_sun: 10 }),
      a.append({ ts: 2, kind: 'done', rule: 'r', key: 'k1', cost_sun: 7, order_ids: ['o1'] }),
    ]);
    await a.close();
    appendFileSync(path, '{"ts":3,"kind":"intent","ru'); // a crash mid-write
    const notices: JournalNotice[] = [];
    const b = new FileJournal(path, { onNotice: (n) => notices.push(n) });
    expect((await b.entries()).map((e) => e.kind)).toEqual(['intent', 'done']);
    await b.append({ ts: 4, kind: 'intent', rule: 'r', key: 'k2', reserved_sun: 5 });
    await b.close();
    expect(notices).toEqual([expect.objectContaining({ line: 3, message: expect.stringContaining('cut short by a crash') })]);
    const c = new FileJournal(path);
    expect((await c.entries()).map((e) => e.ts)).toEqual([1, 2, 4]);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    // k2 never resolved: it counts at its reservation.
    expect(actionsOf(await c.entries(), 'r').map((x) => [x.outcome, x.spent_sun])).toEqual([
      ['done', 7],
      ['unknown', 5],
    ]);
  });
});

describe('a damaged rules journal', () => {
  it('refuses with JOURNAL_CORRUPT naming the line, from the file, from text and from a record that is not an entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-journal-'));
    const torn = join(dir, 'torn.jsonl');
    writeFileSync(
      torn,
      '{"ts":1,"kind":"intent","rule":"r","key":"k","reserved_sun":9}\n{"ts":2,"ki\n{"ts":3,"kind":"done","rule":"r","key":"k","cost_sun":4}\n',
      { mode: 0o600 },
    );
    await expect(readJournalFile(torn)).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT', details: { line: 2 } });
    await expect(readJournalFile(torn)).rejects.toThrow(/line 2 is damaged/);
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"ts":1,"kind":"intent","rule":"r"}\n{"type":"record"}\n', { mode: 0o600 });
    await expect(readJournalFile(other)).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT', details: { line: 2 } });
    expect(() => parseJournal('{"ts":1,"kind":"intent","rule":"r"}\nnot json\n{"ts":2,"kind":"done","rule":"r"}\n')).toThrow(
      expect.objectContaining({ code: 'JOURNAL_CORRUPT' }),
    );
    // The unterminated end alone is a crash's torn line: dropped.
    expect(parseJournal('{"ts":1,"kind":"intent","rule":"r"}\n{"ts":2,"ki').map((e) => e.ts)).toEqual([1]);
    // A file that is not there reads as empty and is not created.
    expect(await readJournalFile(join(dir, 'none.jsonl'))).toEqual([]);
  });
});

describe("a key's spend", () => {
  it('is the highest any runner reported: a late done with cost 0, or a failed after a done, never erases a charge', () => {
    const entries = [
      { ts: 1, kind: 'intent' as const, rule: 'r', key: 'k', reserved_sun: 20_000_000, runner: 'a' },
      { ts: 2, kind: 'intent' as const, rule: 'r', key: 'k', reserved_sun: 20_000_000, runner: 'b' },
      { ts: 3, kind: 'done' as const, rule: 'r', key: 'k', cost_sun: 19_400_000, order_ids: ['o1'], runner: 'a' },
      // runner b's replay of the same key, answered late and with less
      { ts: 4, kind: 'done' as const, rule: 'r', key: 'k', cost_sun: 0, runner: 'b' },
      { ts: 5, kind: 'failed' as const, rule: 'r', key: 'k', reason: 'DUPLICATE_REQUEST', runner: 'b' },
    ];
    expect(actionsOf(entries, 'r').map((x) => [x.outcome, x.spent_sun, x.order_ids])).toEqual([['done', 19_400_000, ['o1']]]);
  });
});
