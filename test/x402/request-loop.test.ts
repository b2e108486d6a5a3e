import { afterEach, describe, expect, test } from 'vitest';
import { ApiPromise } from '../../src/http/api-promise.js';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import { ConnectionError } from '../../src/errors/index.js';
import { X402Client, evmPayer, extraFields } from '../../src/x402/index.js';
import { type Reply, scriptedServer } from '../helpers/scripted-server.js';
import { KEYS } from './helpers.js';

/**
 * The x402 client on the account client's request loop (issue 21, item 5), against a scripted
 * loopback server: the unpaid request is retried like any safe call (network errors, 429, 5xx
 * with Retry-After), the paid request is sent once and never paid again, and every call is an
 * ApiPromise with `.withResponse()`.
 */

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

/** A v2 challenge for `url`: Base USDC, exact scheme (signed offline by the EVM payer). */
function challenge(url: string): Reply {
  const required = {
    x402Version: 2,
    resource: { url, description: 'test', mimeType: 'application/json' },
    accepts: [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '10000',
        asset: USDC,
        payTo: PAY_TO,
        maxTimeoutSeconds: 60,
        extra: { name: 'USD Coin', version: '2' },
      },
    ],
  };
  return { status: 402, headers: { 'PAYMENT-REQUIRED': encodeBase64Json(required) }, body: required };
}

const NETWORK = { block_height: 123, block_hash: '00'.repeat(32), timestamp: '2026-11-20T00:00:00.000Z' };
const settled = { 'PAYMENT-RESPONSE': encodeBase64Json({ success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453', payer: '0x0' }) };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(script: (req: { headers: Record<string, unknown>; url: string }, index: number) => Reply) {
  const server = await scriptedServer((req, index) => script(req, index));
  close = server.close;
  const client = new X402Client({
    baseUrl: server.url,
    payers: [evmPayer({ privateKey: KEYS.evm })],
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    timeoutMs: 5_000,
  });
  return { server, client };
}

const paid = (req: { headers: Record<string, unknown> }) => typeof req.headers['payment-signature'] === 'string';

describe('x402 client: the unpaid request is retried like any safe call', () => {
  test('503 with Retry-After, then the 402: retried, then paid once', async () => {
    const { server, client } = await serve((req, index) => {
      if (index === 0) return { status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } } };
      if (!paid(req)) return challenge(`${server.url}${req.url}`);
      return { status: 200, headers: settled, body: { data: NETWORK } };
    });
    const { data, payment } = await client.network({ format: 'summary' });
    expect(data.block_height).toBe(123);
    expect(payment?.transaction).toBe(`0x${'ab'.repeat(32)}`);
    expect(server.requests.map((r) => (paid(r) ? 'paid' : 'unpaid'))).toEqual(['unpaid', 'unpaid', 'paid']);
  });

  test('a dropped connection and a 429 on the unpaid POST are retried too', async () => {
    const { server, client } = await serve((req, index) => {
      if (index === 0) return 'drop';
      if (index === 1) return { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'RATE_LIMITED', message: 'slow down' } } };
      if (!paid(req)) return challenge(`${server.url}${req.url}`);
      return { status: 200, headers: settled, body: { data: { tx_id: 'ab'.repeat(32), status: 'pending' } } };
    });
    await client.request('POST', '/x402/tron/anything', { schema: (await import('zod')).z.looseObject({ tx_id: (await import('zod')).z.string() }), body: {} });
    expect(server.requests.map((r) => (paid(r) ? 'paid' : 'unpaid'))).toEqual(['unpaid', 'unpaid', 'unpaid', 'paid']);
  });

  test('maxRetries: 0 turns the retries off (the 503 is the answer)', async () => {
    const { server, client } = await serve(() => ({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } } }));
    await expect(client.network({}, { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });
});

describe('x402 client: a paid request is never repeated', () => {
  test('the paid attempt fails with a network error: one payment, no second paid request, the spend counted', async () => {
    const { server, client } = await serve((req) => (paid(req) ? 'drop' : challenge(`${server.url}${req.url}`)));
    await expect(client.network({ format: 'summary' })).rejects.toBeInstanceOf(ConnectionError);
    const payments = server.requests.filter(paid);
    expect(payments).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    // The one payment sent counts: the server may have settled it.
    expect(client.spent).toBe('0.01');
    const sent = decodeBase64Json(payments[0]!.headers['payment-signature'] as string) as { accepted: { amount: string } };
    expect(sent.accepted.amount).toBe('10000');
  });

  test('the paid attempt answers 503: thrown, not retried, not paid again', async () => {
    const { server, client } = await serve((req) =>
      paid(req)
        ? { status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } } }
        : challenge(`${server.url}${req.url}`),
    );
    await expect(client.network({ format: 'summary' })).rejects.toMatchObject({ status: 503 });
    expect(server.requests.filter(paid)).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe('x402 client: calls return an ApiPromise', () => {
  test('.withResponse() gives the paid result with the raw Response', async () => {
    const { server, client } = await serve((req) =>
      paid(req) ? { status: 200, headers: settled, body: { data: NETWORK } } : challenge(`${server.url}${req.url}`),
    );
    const call = client.network({ format: 'summary' });
    expect(call).toBeInstanceOf(ApiPromise);
    const { data, response } = await call.withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('PAYMENT-RESPONSE')).toBe(settled['PAYMENT-RESPONSE']);
    expect(data.data.block_height).toBe(123);
    expect(data.payment?.amount).toBe('10000');
    expect(data.response).toBe(response);
  });

  test('the SDK stays lenient on what it receives: a key the spec does not have is kept, not refused', async () => {
    const watch = { watch_id: 'wch_1', expires_at: '2026-11-21T00:00:00.000Z', status: 'paused', webhook_secret: 'ab'.repeat(32) };
    const { server, client } = await serve((req) =>
      paid(req) ? { status: 200, headers: settled, body: { data: watch } } : challenge(`${server.url}${req.url}`),
    );
    const { data } = await client.watch({ address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', webhook_url: 'https://hooks.example.com/x' });
    expect(data).toMatchObject({ watch_id: 'wch_1', status: 'paused' });
    expect(extraFields(data).webhook_secret).toBe('ab'.repeat(32));
  });

  test('a local validation error rejects the promise (nothing sent)', async () => {
    const { server, client } = await serve(() => ({ status: 500 }));
    const call = client.account('not-an-address');
    expect(call).toBeInstanceOf(ApiPromise);
    await expect(call).rejects.toMatchObject({ code: 'INVALID_ADDRESS' });
    expect(server.requests).toHaveLength(0);
  });
});
