/**
 * Payout files are read exactly and never guessed at: a CSV row with more fields than columns,
 * `T…,1,000` without a header, a JSON number past what a double holds, a JSON key named twice
 * and the token's own contract as a recipient are each refused, naming the line; nothing else
 * changes (the same rows with a header, or amounts as strings, pass).
 */
import { describe, expect, it } from 'vitest';
import { type Payout, checkPayouts, parsePayouts } from '../../src/workflows/payouts/index.js';

const TO = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const OTHER = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** The problems checkPayouts reports for a file's text, as `line N field: message`. */
function problems(text: string): string[] {
  const { payouts, where } = parsePayouts(text);
  try {
    checkPayouts(payouts, {}, where);
    return [];
  } catch (error) {
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'payouts' } });
    return (error as { details: { rows: Array<{ where: string; field: string; message: string }> } }).details.rows.map(
      (r) => `${r.where} ${r.field}: ${r.message}`,
    );
  }
}

const rowsOf = (text: string) => {
  const { payouts, where } = parsePayouts(text);
  return checkPayouts(payouts, {}, where).map((r) => ({ id: r.id, to: r.to, amount_atomic: r.amount_atomic }));
};

describe('CSV rows', () => {
  it('T…,1,000 without a header is refused: 1 with the id 000, or 1,000 with a separator?', () => {
    const found = problems(`${OTHER},5,inv-1\n${TO},1,000\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^line 2 row: 1,000: .*thousands separator/);
    expect(problems(`${TO},12,000.50\n`)[0]).toMatch(/^line 1 row: /);
  });

  it('with a header, a row with more fields than columns is refused, naming the line', () => {
    const found = problems(`to,amount\n${OTHER},5\n${TO},1,000\n`);
    expect(found).toEqual([expect.stringMatching(/^line 3 row: 3 fields where the header names 2 \(to,amount\)/)]);
    expect(problems(`${TO},1,a,USDT,extra\n`)).toEqual([expect.stringMatching(/^line 1 row: 5 fields where a row has at most 4/)]);
  });

  it('what is not ambiguous still reads: a header naming the id, a quoted amount, ids that are not three digits', () => {
    expect(rowsOf(`to,amount,id\n${TO},1,000\n`)).toEqual([{ id: '000', to: TO, amount_atomic: '1000000' }]);
    expect(rowsOf(`${TO},"1000",a\n${OTHER},1000,7\n${OTHER},2.5,001\n`).map((r) => r.amount_atomic)).toEqual(['1000000000', '1000000000', '2500000']);
  });
});

describe('JSON lines are read exactly', () => {
  it('an amount past 2^53 keeps every digit (JSON.parse alone makes 9007199254740993 …992)', () => {
    expect(JSON.parse('9007199254740993')).toBe(9007199254740992); // what the fix is about
    const [row] = rowsOf(`{"to":"${TO}","amount":9007199254740993,"id":"big"}\n`);
    expect(row!.amount_atomic).toBe('9007199254740993000000');
  });

  it('digits a double drops are refused as too many decimals, not rounded away; exponents are exact', () => {
    expect(problems(`{"to":"${TO}","amount":1.00000000000000001}\n`)).toEqual([expect.stringMatching(/^line 1 amount: .*more than 6 decimal places/)]);
    expect(rowsOf(`{"to":"${TO}","amount":25e-1}\n{"to":"${OTHER}","amount":1E3,"id":12345678901234567890}\n`)).toEqual([
      { id: '1', to: TO, amount_atomic: '2500000' },
      { id: '12345678901234567890', to: OTHER, amount_atomic: '1000000000' },
    ]);
    expect(problems(`{"to":"${TO}","amount":1e999}\n`)).toEqual([expect.stringMatching(/^line 1 amount: 1e999 is not a number this file can hold exactly/)]);
  });

  it('a key named twice is refused (JSON.parse would keep the last one silently)', () => {
    expect(problems(`{"to":"${TO}","amount":"1","note":{"amount":"x"}}\n{"to":"${TO}","amount":"1","amount":"1000"}\n`)).toEqual([
      expect.stringMatching(/^line 2 row: names "amount" twice/),
    ]);
  });

  it('a JS number past 2^53 handed to checkPayouts is refused: only a string is exact there', () => {
    expect(() => checkPayouts([{ to: TO, amount: 2 ** 53 + 2 }])).toThrow(/past 2\^53 .*as a string/);
  });
});

describe('the recipient', () => {
  it("is never the token's own contract (what is sent to it is lost)", () => {
    const rows: Payout[] = [
      { to: USDT, amount: '1' },
      { to: TO, amount: '1' },
    ];
    expect(() => checkPayouts(rows)).toThrow(/row 1: to: is the USDT token contract itself/);
    expect(problems(`${USDT},1,a\n`)).toEqual([expect.stringMatching(/^line 1 to: is the USDT token contract/)]);
  });
});
