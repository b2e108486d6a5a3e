/**
 * The inputs the `trx-rent x402 …` commands parse alike (src/cli/commands/x402/inputs.ts): a
 * positive decimal kept as the exact string the API takes, a JSON object argument.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/cli/errors.js';
import { decimal, jsonArg } from '../../../../src/cli/commands/x402/inputs.js';

describe('x402 command inputs', () => {
  it('decimal keeps a positive decimal as written and refuses zero, signs, exponents and words', () => {
    expect(decimal(' 1.50 ', '--amount')).toBe('1.50');
    expect(decimal('0.000001', '--amount')).toBe('0.000001');
    for (const bad of ['0', '0.0', '-1', '+1', '1e3', '1.', '.5', 'ten', '']) {
      expect(() => decimal(bad, '--amount'), bad).toThrow(UsageError);
    }
    expect(() => decimal('x', '--min-amount')).toThrow(/--min-amount must be a positive decimal like 1.5, got "x"/);
  });

  it('jsonArg takes a JSON object (none: {}) and refuses arrays, scalars and broken JSON', () => {
    expect(jsonArg(undefined, 'body')).toEqual({});
    expect(jsonArg('{"address":"T1","visible":true}', 'body')).toEqual({ address: 'T1', visible: true });
    for (const bad of ['[]', '1', 'null', '"s"', '{', '']) expect(() => jsonArg(bad, 'body'), bad).toThrow(/body must be a JSON object/);
  });
});
