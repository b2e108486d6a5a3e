/**
 * Rule 2: payments are capped in value and in time. A hostile proxy stands in front of the real
 * mock: it passes the genuine 402 challenge through (tampered where the attack needs it) and
 * answers the paid retry itself, the way a lying or failing server would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import { X402Client, evmPayer, tronPayer } from '../../src/x402/index.js';
import { type Hostile, type Seen, hostileServer, json } from './hostile.js';

const KEYS = {
  evm: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
  tron: 'b6f1c8bb3e3fa2fc4a57e2a5f5e1d7c1a7e0c4d7b4f2e6a9d8c3b1a0f9e8d7c6',
} as const;
const YEAR_1000 = 1000 * 365 * 24 * 3600;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3 });
});
afterAll(() => mock.close());
const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Challenge = { x402Version: number; accepts: Array<Record<string, unknown>>; extensions?: Record<string, unknown>; [k: string]: unknown };
type PaidReply = (req: Seen, res: import('node:http').ServerResponse) => void;

/** Forwards unpaid requests to the mock (changing the challenge with `tamper`), answers paid ones with `paid`. */
async function proxy(paid: PaidReply, tamper: (c: Challenge) => void = () => undefined) {
  const server = await hostileServer((req, res) => {
    const payment = req.headers['payment-signature'] ?? req.headers['x-payment'];
    if (payment) return paid(req, res);
    void (async () => {
      const upstream = await fetch(`${mock.url}${req.url}`, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'GET' ? undefined : req.body || undefined,
      });
      const text = await upstream.text();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const header = upstream.headers.get('payment-required');
      if (header) {
        const challenge = decodeBase64Json(header) as Challenge;
        tamper(challenge);
        headers['payment-required'] = encodeBase64Json(challenge);
      }
      const body = upstream.status === 402 && text ? JSON.parse(text) : undefined;
      if (body && Array.isArray(body.accepts)) tamper(body);
      res.writeHead(upstream.status, headers);
      res.end(body ? JSON.stringify(body) : text);
    })().catch(() => res.destroy());
  });
  servers.push(server);
  return server;
}

const paidRetries = (s: Hostile) => s.seen.filter((r) => r.headers['payment-signature'] || r.headers['x-payment']);
const evmOnly = (c: Challenge) => (c.accepts = c.accepts.filter((a) => String(a.network).startsWith('eip155:')));
const permitOnly = (c: Challenge) => (c.accepts = c.accepts.filter((a) => a.scheme === 'exact_permit'));

function payloadOf(req: Seen): Record<string, any> {
  return decodeBase64Json(String(req.headers['payment-signature'] ?? req.headers['x-payment'])) as Record<string, any>;
}

describe('security: a signed payment counts as spent until proven otherwise', () => {
  const answers: Array<[string, PaidReply]> = [
    ['402 after payment', (_req, res) => json(res, 402, { x402Version: 2, error: 'payment_rejected', accepts: [] })],
    ['500 after payment', (_req, res) => json(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'boom' } })],
    ['a dropped connection after payment', (_req, res) => void res.destroy()],
  ];
  for (const [name, reply] of answers) {
    it(`${name}: the budget reservation is kept and the next call is refused before signing`, async () => {
      const server = await proxy(reply, evmOnly);
      const client = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm })], maxPayment: '0.01', budget: '0.01' });
      await expect(client.prices()).rejects.toBeTruthy();
      expect(paidRetries(server)).toHaveLength(1);
      expect(client.spent).toBe('0.01');
      await expect(client.prices()).rejects.toMatchObject({ code: 'PAYMENT_REFUSED' });
      expect(paidRetries(server)).toHaveLength(1); // nothing more was signed or sent
    });
  }
});

describe('security: the validity a client signs is capped', () => {
  it('a 1000-year maxTimeoutSeconds on Base: the EIP-3009 authorization is valid for minutes, not centuries', async () => {
    const server = await proxy(
      (_req, res) => json(res, 402, { x402Version: 2, error: 'stop_here', accepts: [] }),
      (c) => {
        evmOnly(c);
        for (const a of c.accepts) a.maxTimeoutSeconds = YEAR_1000;
      },
    );
    const client = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm })] });
    await client.prices().catch(() => undefined);
    const [paid] = paidRetries(server);
    if (paid) {
      const validBefore = Number(payloadOf(paid).payload.authorization.validBefore);
      expect(validBefore - Date.now() / 1000).toBeLessThanOrEqual(300 + 5);
    } else {
      // Refusing to sign at all is also within the rule; then it must say why, with a typed error.
      await expect(client.prices()).rejects.toMatchObject({ code: 'PAYMENT_REFUSED' });
    }
  });

  it('a TRON permit window of 1000 years is signed for the capped validity only', async () => {
    const server = await proxy(
      (_req, res) => json(res, 402, { x402Version: 2, error: 'stop_here', accepts: [] }),
      (c) => {
        permitOnly(c);
        for (const a of c.accepts) a.maxTimeoutSeconds = YEAR_1000;
        const ctx = (c.extensions?.paymentPermitContext ?? {}) as { info?: { meta?: Record<string, unknown> }; meta?: Record<string, unknown> };
        const meta = ctx.meta ?? ctx.info?.meta;
        if (meta) meta.validBefore = Math.floor(Date.now() / 1000) + YEAR_1000;
        for (const a of c.accepts) {
          const extraMeta = ((a.extra as Record<string, any>)?.paymentPermitContext?.meta ?? undefined) as Record<string, unknown> | undefined;
          if (extraMeta) extraMeta.validBefore = Math.floor(Date.now() / 1000) + YEAR_1000;
        }
      },
    );
    const client = new X402Client({ baseUrl: server.url, payers: [tronPayer({ privateKey: KEYS.tron })], prefer: ['exact_permit'] });
    await client.prices().catch(() => undefined);
    const [paid] = paidRetries(server);
    expect(paid, 'the permit was signed').toBeDefined();
    const meta = payloadOf(paid!).payload.paymentPermit.meta;
    expect(Number(meta.validBefore) - Date.now() / 1000).toBeLessThanOrEqual(300 + 5);
  });

  it('the cap is configurable up to a hard maximum, and no further', () => {
    expect(() => new X402Client({ baseUrl: mock.url, payers: [evmPayer({ privateKey: KEYS.evm })], maxValiditySeconds: 900 })).not.toThrow();
    expect(() => new X402Client({ baseUrl: mock.url, payers: [evmPayer({ privateKey: KEYS.evm })], maxValiditySeconds: 10 * 24 * 3600 })).toThrow(
      /maxValiditySeconds/,
    );
    expect(() => new X402Client({ baseUrl: mock.url, payers: [evmPayer({ privateKey: KEYS.evm })], maxValiditySeconds: Number.NaN })).toThrow(
      /maxValiditySeconds/,
    );
  });
});

describe('security: networks are matched exactly', () => {
  for (const network of ['constructor', '__proto__', 'toString', 'EIP155:8453', 'TRON:0x2b6653dc', 'Base', ' eip155:8453']) {
    it(`an offer on ${JSON.stringify(network)} is an unknown network: refused, nothing signed`, async () => {
      const server = await proxy(
        (_req, res) => json(res, 200, {}),
        (c) => {
          for (const a of c.accepts) a.network = network;
        },
      );
      const client = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm }), tronPayer({ privateKey: KEYS.tron })] });
      await expect(client.prices()).rejects.toMatchObject({ code: 'PAYMENT_REFUSED' });
      expect(paidRetries(server)).toHaveLength(0);
    });
  }
});

describe('security: the paid retry is not redirected', () => {
  it('a 307 answer to the paid retry is not followed: the payment header never reaches another origin', async () => {
    const thief = await hostileServer((_req, res) => json(res, 200, {}));
    servers.push(thief);
    const server = await proxy((req, res) => {
      res.writeHead(307, { location: `${thief.url}${req.url}`, 'content-length': '0' });
      res.end();
    }, evmOnly);
    const client = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm })] });
    await expect(client.prices()).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
    expect(thief.seen).toHaveLength(0);
  });
});
