/**
 * `webhooks verify` and `webhooks listen` (a local receiver that verifies, prints and forwards
 * each delivery), with real HTTP on 127.0.0.1; the CLI runs in-process, `listen` stopped by the
 * interrupt the test sends it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhookPayload } from '../../src/webhooks/index.js';
import { ADDRESS, errorLine, json, runCliInProcess, startCliInProcess, tempDir } from './run.js';

const SECRET = 'a'.repeat(64);
const body = (event = 'order.filled', id = 'ord_1') => JSON.stringify({ event, data: { id, status: 'FILLED' }, timestamp: Math.floor(Date.now() / 1000) });

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A stand-in for the user's app that `listen --forward-to` forwards to. */
let app: Server;
let appUrl: string;
const received: Received[] = [];
let onReceive: (() => void) | undefined;

beforeAll(async () => {
  app = createServer((req, res) => {
    let data = '';
    req.on('data', (d) => (data += d));
    req.on('end', () => {
      received.push({ body: data, headers: req.headers });
      res.writeHead(204).end();
      onReceive?.();
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((r) => app.close(r));
});

function nextForward(timeoutMs = 10_000): Promise<Received> {
  const start = received.length;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('nothing forwarded in time')), timeoutMs);
    onReceive = () => {
      if (received.length > start) {
        clearTimeout(timer);
        onReceive = undefined;
        resolve(received[start]!);
      }
    };
  });
}

describe('webhooks verify', () => {
  it('verifies the raw body on stdin against --signature and prints the event', async () => {
    const raw = body();
    const signature = await signWebhookPayload(raw, SECRET);
    const r = await runCliInProcess(['webhooks', 'verify', '--secret', SECRET, '--signature', signature, '--json'], { input: raw });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ verified: true, event: { event: 'order.filled', data: { id: 'ord_1' } } });
  });

  it('rejects a changed body or a wrong secret (exit 1) and names the reason', async () => {
    const raw = body();
    const signature = await signWebhookPayload(raw, SECRET);
    const changed = await runCliInProcess(['webhooks', 'verify', '--secret', SECRET, '--signature', signature], { input: raw.replace('FILLED', 'FAILED') });
    expect(changed.code).toBe(1);
    expect(errorLine(changed)).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    expect(errorLine(changed).message).toContain('mismatch');
    const dir = tempDir();
    writeFileSync(join(dir, 'secret'), 'b'.repeat(64));
    const wrong = await runCliInProcess(['webhooks', 'verify', '--secret-file', join(dir, 'secret'), '--signature', signature], { input: raw });
    expect(wrong.code).toBe(1);
    const env = await runCliInProcess(['webhooks', 'verify', '--signature', signature, '--json'], { input: raw, env: { TRX_RENT_WEBHOOK_SECRET: SECRET } });
    expect(env.code).toBe(0);
  });

  it('missing --secret / --signature is a usage error (exit 2)', async () => {
    const r = await runCliInProcess(['webhooks', 'verify'], { input: body() });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toContain('--secret');
    expect(errorLine(r).message).toContain('--signature');
  });
});

describe('webhooks listen', () => {
  it('verifies each delivery, prints it as a JSON line and forwards the raw body and signature', async () => {
    const listener = await startCliInProcess(
      ['webhooks', 'listen', '--port', '0', '--secret', SECRET, '--forward-to', appUrl, '--json'],
      /Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/,
    );
    try {
      const url = listener.match[1]!;
      const raw = `${body('order.filled', 'ord_42')}\n`; // byte-exact, trailing newline included
      const signature = await signWebhookPayload(raw, SECRET);
      const forwarded = nextForward();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signature }, body: raw });
      expect(res.status).toBe(200);
      const got = await forwarded;
      expect(got.body).toBe(raw);
      expect(got.headers['x-service-signature']).toBe(signature);

      // A delivery signed with another secret is refused and not forwarded.
      const bad = await fetch(url, {
        method: 'POST',
        headers: { 'x-service-signature': await signWebhookPayload(raw, 'c'.repeat(64)) },
        body: raw,
      });
      expect(bad.status).toBe(400);
      // The live service's header name is accepted too.
      const viaOtherName = nextForward();
      const alt = await fetch(url, { method: 'POST', headers: { 'x-merx-signature': signature }, body: raw });
      expect(alt.status).toBe(200);
      expect((await viaOtherName).headers['x-merx-signature']).toBe(signature);
    } finally {
      const result = await listener.stop();
      expect(result.code).toBe(0);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatchObject({ type: 'delivery', verified: true, event: 'order.filled', forwarded: { url: appUrl, status: 204 } });
      expect(lines[0].body.data.id).toBe('ord_42');
      expect(lines.filter((l) => !l.verified)).toEqual([expect.objectContaining({ verified: false, reason: 'mismatch' })]);
      expect(received.filter((r) => r.body.includes('ord_42'))).toHaveLength(2);
      expect(result.stderr).not.toContain(SECRET);
    }
  });

  it('with --mock registers itself on the embedded mock: an order placed there arrives verified and forwarded', async () => {
    const listener = await startCliInProcess(
      ['webhooks', 'listen', '--mock', '--port', '0', '--forward-to', appUrl, '--events', 'order.filled', '--no-json'],
      /Embedded mock API at (http:\/\/127\.0\.0\.1:\d+) \(demo key in TRX_RENT_API_KEY form: (sk_live_\w+)\)[\s\S]*Ready!/,
    );
    try {
      const [, mockUrl, key] = listener.match;
      const forwarded = nextForward(20_000);
      const buy = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'], {
        env: { TRX_RENT_BASE_URL: mockUrl, TRX_RENT_API_KEY: key },
      });
      expect(buy.code, buy.stderr).toBe(0);
      const order = json(buy);
      const got = await forwarded;
      expect(JSON.parse(got.body)).toMatchObject({ event: 'order.filled', data: { id: order.id, status: 'FILLED' } });
      expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      await new Promise((r) => setTimeout(r, 200));
      expect(listener.output().stdout).toMatch(new RegExp(`✓ order\\.filled ${order.id} → 204 ${appUrl.replace(/[/.]/g, '\\$&')}`));
    } finally {
      expect((await listener.stop()).code).toBe(0);
    }
  });

  it('without a secret (and no --register/--mock, no terminal) is a usage error', async () => {
    const r = await runCliInProcess(['webhooks', 'listen', '--port', '0', '--forward-to', appUrl], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(errorLine(r).code).toBe('MISSING_ARGUMENT');
  });
});
