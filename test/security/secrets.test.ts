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
    for (const args of [
      ['webhooks', 'verify', '--help'],
      ['webhooks', 'listen', '--help'],
      ['login', '--help'],
      ['x402', 'prices', '--help'],
    ]) {
      const run = await runCliInProcess(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/TRX_RENT_[A-Z_]+/);
      expect(run.stdout, args.join(' ')).toMatch(/prefer/i);
    }
  });

  it('an option glued to its value (-kVALUE, --opt=VALUE) is named without the value, in both output modes', async () => {
    for (const args of [
      ['balance', `-k${SECRET_KEY}`],
      ['balance', `--token=${SECRET_KEY}`],
      ['balance', `-xk=${SECRET_KEY}`],
    ]) {
      for (const mode of ['--json', '--no-json']) {
        const run = await runCliInProcess([...args, mode]);
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stdout + run.stderr).not.toContain('d4d4d4');
        expect(run.stderr).toMatch(/unknown option '-/);
      }
    }
  });

  it('webhooks listen takes its secret from stdin (--secret-file -) and never prints it', async () => {
    const { startCliInProcess } = await import('../cli/run.js');
    const secret = 'whsec_from_stdin_0123456789';
    const listener = await startCliInProcess(
      ['webhooks', 'listen', '--port', '0', '--secret-file', '-', '--json', '--verbose'],
      /Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/,
      {
        input: `${secret}\n`,
      },
    );
    const raw = JSON.stringify({ event: 'order.filled', data: { id: 'ord_1' }, timestamp: Math.floor(Date.now() / 1000) });
    const res = await fetch(listener.match[1]!, { method: 'POST', headers: { 'x-service-signature': await signWebhookPayload(raw, secret) }, body: raw });
    expect(res.status).toBe(200);
    const result = await listener.stop();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ verified: true, event: 'order.filled' });
    expect(result.stderr).toContain('webhook secret from stdin (--secret-file -)');
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('webhooks verify reads its secret from TRX_RENT_WEBHOOK_SECRET or a file; stdin is the body, not a secret', async () => {
    const raw = JSON.stringify({ event: 'order.filled', data: { id: 'ord_1' }, timestamp: Math.floor(Date.now() / 1000) });
    const secret = 'whsec_env_secret';
    const signature = await signWebhookPayload(raw, secret);
    const fromEnv = await runCliInProcess(['webhooks', 'verify', '--signature', signature, '--json', '--verbose'], {
      input: raw,
      env: { TRX_RENT_WEBHOOK_SECRET: secret },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stderr).toContain('webhook secret from TRX_RENT_WEBHOOK_SECRET');
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(secret);
    const dash = await runCliInProcess(['webhooks', 'verify', '--secret-file', '-', '--signature', signature, '--json'], { input: raw });
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('--secret-file - reads stdin');
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
