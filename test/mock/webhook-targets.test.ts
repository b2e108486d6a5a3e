import { describe, expect, it } from 'vitest';
import { createMockState, isLoopbackHost } from '../../src/mock/index.js';

/**
 * By default the mock contacts only loopback hosts, so a test that registers
 * https://example.com/hook never sends anything off the machine; 'any' (or a custom fetch)
 * lifts that. The guard sits before the fetch: a recording fetch proves nothing was called.
 */
describe('where the mock may deliver webhooks', () => {
  const body = { event: 'order.filled', data: { id: 'o1' }, timestamp: 1 };

  it('refuses a non-loopback host by default: a failed attempt is recorded, nothing is fetched', async () => {
    const calls: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response('ok');
    }) as typeof fetch;
    const state = createMockState({ clock: 'manual' });
    try {
      state.deliverWebhook('https://example.com/hook', body, 'a'.repeat(64));
      state.deliverWebhook('http://127.0.0.1:1/hook', body, 'a'.repeat(64));
      await state.advance(0);
      await state.idle();
      expect(calls).toEqual(['http://127.0.0.1:1/hook']);
      const [remote] = state.webhookDeliveries().filter((d) => d.url.includes('example.com'));
      expect(remote!.attempts[0]!.error).toMatch(/only to loopback hosts/);
    } finally {
      globalThis.fetch = original;
      state.dispose();
    }
  });

  it("'any' and a custom fetch allow every host", async () => {
    const calls: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response('ok');
    }) as typeof fetch;
    const state = createMockState({ clock: 'manual', fetch: fetchImpl });
    try {
      state.deliverWebhook('https://example.com/hook', body, 'a'.repeat(64));
      await state.advance(0);
      await state.idle();
      expect(calls).toEqual(['https://example.com/hook']);
      expect(state.webhookDeliveries()[0]!.status).toBe('delivered');
    } finally {
      state.dispose();
    }
  });

  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'app.localhost', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '192.168.1.1', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
});
