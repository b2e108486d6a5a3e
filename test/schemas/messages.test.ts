import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as classic from 'zod';
import { issuesToErrorData } from '../../src/schemas/issues.js';
import { CreateKeyRequest } from '../../src/schemas/keys.js';
import { CreateOrderRequest } from '../../src/schemas/orders.js';
import { CreateWithdrawalRequest } from '../../src/schemas/withdrawals.js';

/**
 * The core's schemas are zod/mini, which loads no locale: without help every request error
 * would read `amount: Invalid input`. On a failed check the SDK parses the input again with
 * zod's English error map (`englishIssues`, `ENGLISH_MESSAGES`), never through zod's global
 * config, which an application's own zod shares. Checked in a process that loads only `trx-rent` (the built package), so zod's classic
 * API, which installs English globally on import, cannot be what makes the messages right.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const CASES = [
  ['orders.create', CreateOrderRequest, { resource_type: 'ENERGY', amount: 0, duration_sec: 3600, target_address: ADDRESS }],
  ['orders.create', CreateOrderRequest, { resource_type: 'ENERGY', amount: 1000, duration_sec: 3600, target_address: ADDRESS }],
  ['orders.create', CreateOrderRequest, { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'T123' }],
  ['orders.create', CreateOrderRequest, { resource_type: 'WATER', amount: 65_000, duration_sec: 3600, target_address: ADDRESS }],
  ['withdrawals.create', CreateWithdrawalRequest, { address: ADDRESS, amount: '60000000', currency: 'TRX' }],
  ['withdrawals.create', CreateWithdrawalRequest, { address: ADDRESS, currency: 'TRX' }],
  ['withdrawals.create', CreateWithdrawalRequest, { address: ADDRESS, amount: 1, currency: 'TRX' }],
  ['keys.create', CreateKeyRequest, { name: 'ci', permissions: [], extra: true }],
  ['keys.create', CreateKeyRequest, { name: 'x'.repeat(101), permissions: [] }],
] as const;

/** What the built SDK throws for each case, in a fresh process that imports only 'trx-rent'. */
function sdkErrors(): { errors: { code: string; message: string; field?: string }[]; config: string[] } {
  const code = `
    import { TrxRent } from 'trx-rent';
    import * as z from 'zod/mini';
    const client = new TrxRent({ apiKey: 'sk_test_messages', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    const cases = ${JSON.stringify(CASES.map(([method, , input]) => [method, input]))};
    const errors = [];
    for (const [method, input] of cases) {
      const [resource, name] = method.split('.');
      try {
        await client[resource][name](input);
        errors.push({ code: 'NONE', message: 'no error' });
      } catch (e) {
        errors.push({ code: e.code, message: e.message, field: e.details?.field });
      }
    }
    console.log(JSON.stringify({ errors, config: Object.keys(z.config()) }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
}

describe('request error messages on zod/mini', () => {
  it('name the field with the same English messages as under zod classic, and leave zod’s global config alone', () => {
    expect(existsSync(new URL('../../dist/index.js', import.meta.url)), 'build first: npx tsup').toBe(true);
    const { errors, config } = sdkErrors();
    // zod's global config is untouched: no locale, no error map (classic would have set `localeError`).
    expect(config).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual([
      'amount: Too small: expected number to be >0',
      'amount: must be at least 65000 for energy',
      'target_address: must be a valid base58check TRON address (T..., 34 characters)',
      'resource_type: Invalid option: expected one of "ENERGY"|"BANDWIDTH"',
      'amount: Invalid input: expected number, received string',
      'amount is required',
      'amount: must be at least 50000000 SUN (50 TRX)',
      'Unknown field(s): extra',
      'name: Too big: expected string to have <=100 characters',
    ]);
    expect(errors.map((e) => e.code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'INVALID_ADDRESS', ...Array(6).fill('VALIDATION_ERROR')]);
    expect(errors.map((e) => e.field)).toEqual(['amount', 'amount', 'target_address', 'resource_type', 'amount', 'amount', 'amount', undefined, 'name']);
    // The same text this process gets from the same schemas with zod classic's English installed globally.
    // zod >= 4.6 installs English when the first classic schema is made (4.4 on import).
    classic.string();
    expect(classic.config().localeError).toBeTypeOf('function');
    const underClassic = CASES.map(([, schema, input]) => issuesToErrorData(schema.safeParse(input).error!.issues).message);
    expect(errors.map((e) => e.message)).toEqual(underClassic);
  });

  it('an answer of the wrong shape is described in English too (INVALID_RESPONSE)', () => {
    const code = `
      import { TrxRent } from 'trx-rent';
      const body = JSON.stringify([{ id: 'w1', user_id: 'u1', url: 'https://example.com/hook', events: ['order.filled'], is_active: 'yes', created_at: '2026-11-20T00:00:00Z' }]);
      const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      const client = new TrxRent({ apiKey: 'sk_test_messages', baseUrl: 'http://127.0.0.1:9', maxRetries: 0, fetch });
      try { await client.webhooks.list(); console.log('no error'); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
    expect(out).toEqual({
      code: 'INVALID_RESPONSE',
      message: 'GET /api/v1/webhooks: unexpected response shape at 0.is_active: Invalid input: expected boolean, received string',
    });
  });
});
