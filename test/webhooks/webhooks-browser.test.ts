import { createHmac, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * The built verifier in a browser-like sandbox: no `process`, no `require`, no Buffer — only Web
 * Crypto, TextEncoder/TextDecoder. Proves `trx-rent/webhooks` has no runtime dependency and takes
 * the Web Crypto path where Node's crypto is absent. Needs `dist/` (npm test builds first).
 */
describe('trx-rent/webhooks in a browser-like environment', () => {
  const file = fileURLToPath(new URL('../../dist/webhooks/index.cjs', import.meta.url));
  const source = readFileSync(file, 'utf8');

  it('has no require() of anything', () => {
    expect(source).not.toMatch(/require\(/);
  });

  it('verifies and rejects with Web Crypto only', async () => {
    const module = { exports: {} as Record<string, (...args: unknown[]) => Promise<unknown>> };
    const context = vm.createContext({
      module,
      exports: module.exports,
      crypto: webcrypto,
      TextEncoder,
      TextDecoder,
      Uint8Array,
      ArrayBuffer,
      Promise,
      JSON,
      Date,
    });
    vm.runInContext(source, context, { filename: 'webhooks.cjs' });
    expect(vm.runInContext('typeof process', context)).toBe('undefined');
    const { verifyWebhookSignature, constructWebhookEvent, signWebhookPayload } = module.exports;
    const secret = '9c'.repeat(32);
    const body = JSON.stringify({ event: 'withdrawal.completed', data: { id: 'w1' }, timestamp: Math.floor(Date.now() / 1000) });
    const header = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(await signWebhookPayload!(body, secret)).toBe(header);
    expect(await verifyWebhookSignature!(body, header, secret)).toBe(true);
    expect(await verifyWebhookSignature!(`${body} `, header, secret)).toBe(false);
    expect(await verifyWebhookSignature!(body, header, 'x'.repeat(64))).toBe(false);
    await expect(constructWebhookEvent!(body, header, secret)).resolves.toMatchObject({ event: 'withdrawal.completed' });
    await expect(constructWebhookEvent!(body, 'sha256=00', secret)).rejects.toMatchObject({ reason: 'bad_format' });
  });
});
