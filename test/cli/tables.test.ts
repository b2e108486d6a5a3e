/**
 * Tables for people: ids never cut (columns are left out first), times compact but distinct,
 * and order ids resolved from a unique prefix as git resolves a short hash.
 */
import { describe, expect, it } from 'vitest';
import { compactTimes } from '../../src/cli/format.js';
import { makeStyles } from '../../src/cli/styles.js';
import { renderTable } from '../../src/cli/tables.js';
import { resolveOrderId } from '../../src/cli/commands/orders.js';
import { CliError, UsageError } from '../../src/cli/errors.js';
import type { Order } from '../../src/schemas/index.js';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('compactTimes', () => {
  it('today and a minute apart: hours and minutes', () => {
    expect(compactTimes(['2026-11-26T10:01:05Z', '2026-11-26T10:02:05Z'], NOW)).toEqual(['10:01', '10:02']);
  });
  it('the same minute: seconds too', () => {
    expect(compactTimes(['2026-11-26T10:01:05Z', '2026-11-26T10:01:09Z'], NOW)).toEqual(['10:01:05', '10:01:09']);
  });
  it('other days this year: month and day; other years: the whole date', () => {
    expect(compactTimes(['2026-11-25T10:01:05Z', '2026-11-26T10:01:05Z'], NOW)).toEqual(['11-25 10:01', '11-26 10:01']);
    expect(compactTimes(['2025-11-25T10:01:05Z', '2026-11-26T10:01:05Z'], NOW)).toEqual(['2025-11-25 10:01', '2026-11-26 10:01']);
  });
  it('Unix seconds and ms are times; text that is not one passes through', () => {
    expect(compactTimes([Date.parse('2026-11-26T10:01:05Z') / 1000, 'soon'], NOW)).toEqual(['10:01', 'soon']);
  });
  it('equal times stay equal (distinct means distinct inputs)', () => {
    expect(compactTimes(['2026-11-26T10:01:05Z', '2026-11-26T10:01:05Z'], NOW)).toEqual(['10:01', '10:01']);
  });
});

describe('renderTable on a narrow terminal', () => {
  const id = 'efdfc09b-1111-4222-8333-44444535619d';
  const columns = [
    { header: 'ID', truncate: 'none' as const },
    { header: 'NOTE', min: 8 },
    { header: 'TO', truncate: 'middle' as const, drop: 2 },
    { header: 'EXTRA', drop: 1 },
  ];
  const rows = [[id, 'a fairly long note here', 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', 'something']];
  it('leaves out droppable columns (highest first) before cutting anything, and says so', () => {
    let hinted = false;
    const out = renderTable(columns, rows, makeStyles(false, { width: 80, truncated: () => (hinted = true) }));
    expect(out).toContain(id);
    expect(out).not.toContain('TJCnKs');
    expect(out).toContain('something');
    expect(out).toMatch(/\(TO left out to fit 80 columns: --wide shows all\)/);
    expect(hinted).toBe(true);
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });
  it('narrower still: both dropped, then the note is cut; the id never', () => {
    const out = renderTable(columns, rows, makeStyles(false, { width: 50 }));
    expect(out).toContain(id);
    expect(out).toMatch(/a fai.*…/);
    expect(out).toMatch(/\(TO, EXTRA left out/);
  });
  it('without a width (piped, --wide) every column is kept', () => {
    const out = renderTable(columns, rows, makeStyles(false));
    expect(out).toContain('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW');
    expect(out).not.toMatch(/left out/);
  });
});

describe('resolveOrderId', () => {
  const ids = ['efdfc09b-1111-4222-8333-44444535619d', 'efdfc09c-1111-4222-8333-444445356190', '0a1b2c3d-1111-4222-8333-444445356190'];
  const orders = {
    async *list() {
      for (const id of ids) yield { id } as Order;
    },
  };
  it('a whole id as given; a unique prefix to its order', async () => {
    expect(await resolveOrderId(orders, ids[0]!)).toBe(ids[0]);
    expect(await resolveOrderId(orders, 'efdfc09b')).toBe(ids[0]);
    expect(await resolveOrderId(orders, '0A1B')).toBe(ids[2]);
  });
  it('an ambiguous prefix names every candidate (usage error, exit 2)', async () => {
    const error = await resolveOrderId(orders, 'efdfc09').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('AMBIGUOUS_ID');
    expect((error as UsageError).message).toContain(ids[0]);
    expect((error as UsageError).message).toContain(ids[1]);
    expect((error as UsageError).exitCode).toBe(2);
  });
  it('no match: NOT_FOUND, exit 4', async () => {
    const error = await resolveOrderId(orders, 'ffff').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe('NOT_FOUND');
    expect((error as CliError).exitCode).toBe(4);
  });
});

describe('long errors for people', () => {
  it('a 1,500-character PAYMENT_REFUSED puts the hint first and wraps the message at the width', async () => {
    const { formatReport } = await import('../../src/cli/error-report.js');
    const message = `No offer can be paid: ${Array.from({ length: 30 }, (_, i) => `offer ${i} exact_permit on tron:0x2b6653dc above max payment 0.01 USD;`).join(' ')}`;
    expect(message.length).toBeGreaterThan(1500);
    const plain = { red: (s: string) => s, dim: (s: string) => s };
    const text = formatReport({ code: 'PAYMENT_REFUSED', message, hint: 'raise --max-payment to pay it', exit_code: 2 }, plain, 80);
    const lines = text.split('\n');
    expect(lines[0]).toBe('error PAYMENT_REFUSED: raise --max-payment to pay it');
    expect(lines.length).toBeGreaterThan(15);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(lines.slice(1).join(' ').replace(/\s+/g, ' ').trim()).toBe(message);
    // Short ones stay one line.
    expect(formatReport({ code: 'NOT_FOUND', message: 'Order x not found', hint: 'check the id', exit_code: 4 }, plain)).toBe(
      'error NOT_FOUND: Order x not found (hint: check the id)',
    );
  });
});

describe('pictures: price history sparklines and the burn comparison', () => {
  it('sparkline: lowest to highest over the period, flat when flat, at most `width` characters', async () => {
    const { sparkline, priceTrends } = await import('../../src/cli/commands/prices.js');
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], 8)).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([5, 5, 5], 10)).toBe('▄▄▄');
    expect(
      sparkline(
        Array.from({ length: 100 }, (_, i) => i),
        20,
      ),
    ).toHaveLength(20);
    const trends = priceTrends(
      [
        { provider: 'b', resource_type: 'ENERGY', price_sun: 60, available: 1, is_online: true, polled_at: '2026-11-26T10:00:30Z' },
        { provider: 'a', resource_type: 'ENERGY', price_sun: 50, available: 1, is_online: true, polled_at: '2026-11-26T10:01:00Z' },
        { provider: 'a', resource_type: 'ENERGY', price_sun: 40, available: 1, is_online: true, polled_at: '2026-11-26T10:00:00Z' },
      ] as never,
      10,
    );
    expect(trends.map((t) => [t.provider, t.low, t.high, t.now, t.line])).toEqual([
      ['a', 40, 50, 50, '▁█'],
      ['b', 60, 60, 60, '▄'],
    ]);
  });

  it('prices history: a sparkline per provider at a terminal, the API entries when piped', async () => {
    const { runCliInProcess } = await import('./run.js');
    const tty = await runCliInProcess(['--mock', 'prices', 'history', '--period', '6h'], { env: { NO_COLOR: '1' }, isTTY: true, columns: 80 });
    expect(tty.code, tty.stderr).toBe(0);
    const rows = tty.stdout.split('\n').filter((l) => /[▁▂▃▄▅▆▇█]{10,}/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row).toMatch(/low +\d+ +high +\d+ +now \d+$/);
      expect([...row].length).toBeLessThanOrEqual(80);
    }
    const piped = await runCliInProcess(['--mock', 'prices', 'history', '--period', '6h']);
    expect(piped.code, piped.stderr).toBe(0);
    const data = JSON.parse(piped.stdout) as Array<{ provider: string; price_sun: number; polled_at: string }>;
    expect(data.length).toBeGreaterThan(rows.length);
    expect(data[0]).toMatchObject({ provider: expect.any(String), price_sun: expect.any(Number) });
    expect(piped.stdout).not.toMatch(/[▁▂▃▄▅▆▇█]/);
  });

  it('preview shows the burn cost it saves next to the rental cost; --json stays the API document', async () => {
    const { renderBurnComparison } = await import('../../src/cli/views.js');
    const plain = makeStyles(false);
    expect(renderBurnComparison('ENERGY', 65_000, 3_055_000, plain)).toBe(
      "rent  3.055 TRX   burn instead  6.5 TRX (100 SUN per unit, the network's default fee)\nrenting saves 3.445 TRX (53%)\n",
    );
    const { runCliInProcess } = await import('./run.js');
    const tty = await runCliInProcess(['--mock', 'preview', '65000'], { env: { NO_COLOR: '1' }, isTTY: true, columns: 80 });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/burn instead +6\.5 TRX/);
    expect(tty.stdout).toMatch(/renting saves [\d.]+ TRX \(\d+%\)/);
    const piped = await runCliInProcess(['--mock', 'preview', '65000']);
    expect(piped.stdout).not.toMatch(/burn/);
    expect(typeof (JSON.parse(piped.stdout) as { best: { cost_trx: unknown } }).best.cost_trx).toBe('number');
  });
});
