/** The JSON-lines journal: appends are durable lines, a torn last line is skipped and never glued to the next. */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FileJournal, actionsOf } from '../../../src/workflows/rules/index.js';

describe('FileJournal', () => {
  it('appends one line per entry, reads them back on open, survives a torn line', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rules-journal-')), 'sub', 'j.jsonl');
    const a = new FileJournal(path);
    await Promise.all([
      a.append({ ts: 1, kind: 'intent', rule: 'r', key: 'k1', reserved_sun: 10 }),
      a.append({ ts: 2, kind: 'done', rule: 'r', key: 'k1', cost_sun: 7, order_ids: ['o1'] }),
    ]);
    await a.close();
    appendFileSync(path, '{"ts":3,"kind":"intent","ru'); // a crash mid-write
    const b = new FileJournal(path);
    expect(b.entries().map((e) => e.kind)).toEqual(['intent', 'done']);
    await b.append({ ts: 4, kind: 'intent', rule: 'r', key: 'k2', reserved_sun: 5 });
    await b.close();
    const c = new FileJournal(path);
    expect(c.entries().map((e) => e.ts)).toEqual([1, 2, 4]);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
    // k2 never resolved: it counts at its reservation.
    expect(actionsOf(c.entries(), 'r').map((x) => [x.outcome, x.spent_sun])).toEqual([
      ['done', 7],
      ['unknown', 5],
    ]);
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
