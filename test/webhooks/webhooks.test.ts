import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  WebhookSignatureError,
  constructWebhookEvent,
  getSignatureHeader,
  isKnownEvent,
  signWebhookPayload,
  verifyWebhookSignature,
} from '../../src/webhooks/index.js';

const SECRET = 'a3f1'.repeat(16); // 64 hex, like the service's secrets
const NOW = 1_763_000_000_000;
const body = JSON.stringify({
  event: 'order.filled',
  data: { id: 'ord_1', status: 'FILLED', total_cost_sun: 1_950_000 },
  timestamp: NOW / 1000 - 10,
});
const reference = (raw: string, secret: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookSignatureError);
    return (e as WebhookSignatureError).reason;
  }
  throw new Error('expected a WebhookSignatureError');
}

describe('webhook signatures', () => {
  it('signs exactly as node:crypto HMAC-SHA256 with the sha256= prefix', async () => {
    expect(await signWebhookPayload(body, SECRET)).toBe(reference(body, SECRET));
    const bytes = new TextEncoder().encode(body);
    expect(await signWebhookPayload(bytes, SECRET)).toBe(reference(body, SECRET));
    expect(await signWebhookPayload(Buffer.from(body), SECRET)).toBe(reference(body, SECRET));
  });

  it('valid: verifies and returns the typed event', async () => {
    const header = reference(body, SECRET);
    expect(await verifyWebhookSignature(body, header, SECRET)).toBe(true);
    const event = await constructWebhookEvent(body, header, SECRET, { now: NOW });
    expect(event.event).toBe('order.filled');
    if (isKnownEvent(event) && event.event === 'order.filled') expect(event.data.id).toBe('ord_1');
    else throw new Error('expected a known order.filled event');
  });

  it('tampered body: mismatch', async () => {
    const header = reference(body, SECRET);
    const tampered = body.replace('1950000', '1');
    expect(await verifyWebhookSignature(tampered, header, SECRET)).toBe(false);
    expect(await reason(constructWebhookEvent(tampered, header, SECRET, { now: NOW }))).toBe('mismatch');
    // re-serialised JSON is a different body: the raw bytes are what is signed
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(await verifyWebhookSignature(reserialised, header, SECRET)).toBe(false);
  });

  it('wrong secret: mismatch', async () => {
    const header = reference(body, SECRET);
    expect(await verifyWebhookSignature(body, header, 'b'.repeat(64))).toBe(false);
    expect(await reason(constructWebhookEvent(body, header, 'b'.repeat(64), { now: NOW }))).toBe('mismatch');
    expect(await verifyWebhookSignature(body, header, '')).toBe(false);
  });

  it('missing prefix: a bare hex digest is accepted (the live service has sent both forms)', async () => {
    const bare = reference(body, SECRET).slice('sha256='.length);
    expect(await verifyWebhookSignature(body, bare, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(body, bare.toUpperCase(), SECRET)).toBe(true);
    await expect(constructWebhookEvent(body, bare, SECRET, { now: NOW })).resolves.toMatchObject({ event: 'order.filled' });
  });

  it('missing header and bad format have their own reasons', async () => {
    expect(await reason(constructWebhookEvent(body, undefined, SECRET))).toBe('missing_header');
    expect(await reason(constructWebhookEvent(body, '', SECRET))).toBe('missing_header');
    expect(await reason(constructWebhookEvent(body, 'sha256=xyz', SECRET))).toBe('bad_format');
    expect(await reason(constructWebhookEvent(body, 'sha1=' + 'a'.repeat(40), SECRET))).toBe('bad_format');
    expect(await verifyWebhookSignature(body, null, SECRET)).toBe(false);
  });

  it('too old: rejected past the tolerance, accepted within it or with tolerance 0', async () => {
    const header = reference(body, SECRET);
    const later = NOW + 400_000; // timestamp is now 410 s old
    expect(await reason(constructWebhookEvent(body, header, SECRET, { now: later }))).toBe('too_old');
    await expect(constructWebhookEvent(body, header, SECRET, { now: later, toleranceSec: 600 })).resolves.toBeTruthy();
    await expect(constructWebhookEvent(body, header, SECRET, { now: later, skipTimestampCheck: true })).resolves.toBeTruthy();
    const future = JSON.stringify({ event: 'order.filled', data: {}, timestamp: NOW / 1000 + 3600 });
    expect(await reason(constructWebhookEvent(future, reference(future, SECRET), SECRET, { now: NOW }))).toBe('invalid_timestamp');
  });

  it('a validly signed body that is not an event is invalid_payload', async () => {
    for (const raw of ['not json', '[]', '{"event":1}', '{"event":"x"}']) {
      expect(await reason(constructWebhookEvent(raw, reference(raw, SECRET), SECRET))).toBe('invalid_payload');
    }
  });

  it('keeps unknown event types and maps the live deposit.confirmed name', async () => {
    const unknown = JSON.stringify({ event: 'order.partial', data: { id: 'x' }, timestamp: NOW / 1000 });
    const e1 = await constructWebhookEvent(unknown, reference(unknown, SECRET), SECRET, { now: NOW });
    expect(e1.event).toBe('order.partial');
    expect(isKnownEvent(e1)).toBe(false);
    const alias = JSON.stringify({ event: 'deposit.confirmed', data: { tx_id: 't', amount_sun: 1, currency: 'TRX' }, timestamp: NOW / 1000 });
    const e2 = await constructWebhookEvent(alias, reference(alias, SECRET), SECRET, { now: NOW });
    expect(e2.event).toBe('deposit.received');
  });

  it('reads the signature under either header name', () => {
    expect(getSignatureHeader(new Headers({ 'X-Service-Signature': 'sha256=1' }))).toBe('sha256=1');
    expect(getSignatureHeader({ 'x-merx-signature': 'sha256=2' })).toBe('sha256=2');
    expect(getSignatureHeader({})).toBeUndefined();
  });
});
