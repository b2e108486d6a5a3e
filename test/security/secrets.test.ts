/**
 * Rule 5: secrets stay out of argv echoes and logs, and the verifier never turns its replay check
 * off by accident.
 */
import { describe, expect, it } from 'vitest';
import { constructWebhookEvent, signWebhookPayload } from '../../src/webhooks/index.js';
import { runCliInProcess } from '../cli/run.js';

const SECRET_KEY = `sk_live_${'d4'.repeat(32)}`;

describe('security: secrets stay out of echoes', () => {
  it('a usage error never echoes an option value (--api-key=secret)', async () => {
    for (const args of [
      ['balance', `--api-key=${SECRET_KEY}`, '--no-such-flag'],
      ['orders', 'get', `--api-key=${SECRET_KEY}`, '--bogus=1'],
      ['balance', '--api-key', SECRET_KEY, 'extra', 'words'],
      ['webhooks', 'verify', '--secret=whsec_topsecret', '--signature'],
    ]) {
      const run = await runCliInProcess(args, { env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9' } });
      expect(run.code, args.join(' ')).toBe(2);
      const out = run.stdout + run.stderr;
      expect(out).not.toContain(SECRET_KEY);
      expect(out).not.toContain('whsec_topsecret');
      expect(out).not.toContain('d4d4d4');
    }
  });

  it('every command that takes a secret says to prefer the environment, a file or stdin', async () => {
    for (const args of [['webhooks', 'verify', '--help'], ['webhooks', 'listen', '--help'], ['login', '--help'], ['x402', 'prices', '--help']]) {
      const run = await runCliInProcess(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/TRX_RENT_[A-Z_]+/);
      expect(run.stdout, args.join(' ')).toMatch(/prefer/i);
    }
  });

  it('the verifier rejects a non-positive or non-finite tolerance instead of disabling the replay check', async () => {
    const body = JSON.stringify({ event: 'order.filled', data: { id: 'ord_1' }, timestamp: 1 }); // 1970
    const signature = await signWebhookPayload(body, 'whsec_test');
    for (const toleranceSec of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(constructWebhookEvent(body, signature, 'whsec_test', { toleranceSec }), String(toleranceSec)).rejects.toThrow(/toleranceSec/);
    }
    // The default still refuses a 1970 event.
    await expect(constructWebhookEvent(body, signature, 'whsec_test')).rejects.toMatchObject({ reason: 'too_old' });
  });
});
