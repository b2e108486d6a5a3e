import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockState, startMockServer } from '../../src/mock/index.js';
import { createHandlers } from '../../src/mock/msw.js';

describe('the paid side is configured through the mock server options', () => {
  it('startMockServer({ x402: { version: 1 } }) answers unpaid calls with a v1 body only', async () => {
    const mock = await startMockServer({ x402: { version: 1 }, rateLimits: false });
    try {
      const res = await fetch(`${mock.url}/x402/tron/prices`);
      expect(res.status).toBe(402);
      expect(res.headers.get('payment-required')).toBeNull();
      const body = await res.json();
      expect(body.x402Version).toBe(1);
      expect(body.accepts.every((a: { network: string }) => a.network === 'base')).toBe(true);
    } finally {
      await mock.close();
    }
  });

  const state = createMockState();
  const server = setupServer(...createHandlers(state, { rateLimits: false }));
  afterAll(() => {
    server.close();
    state.dispose();
  });

  it('createHandlers defaults to v2: challenge in the PAYMENT-REQUIRED header and the body, TRON offered', async () => {
    server.listen({ onUnhandledRequest: 'error' });
    const res = await fetch('http://127.0.0.1:9/x402/tron/network');
    expect(res.status).toBe(402);
    const header = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(header.x402Version).toBe(2);
    expect(header.accepts.some((a: { network: string }) => a.network.startsWith('tron:'))).toBe(true);
    expect((await res.json()).x402Version).toBe(2);
  });
});
