/**
 * A loopback HTTP receiver for webhook deliveries (`webhooks listen`, `demo`): reads the raw
 * body (never re-serialised: the signature covers the exact bytes), verifies it, answers at once,
 * and hands the verified event on.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEvent, constructWebhookEvent, getSignatureHeader } from '../webhooks/index.js';

export interface Delivery {
  path: string;
  raw: Uint8Array;
  headers: IncomingMessage['headers'];
  /** The signature header's name as received (x-service-signature or the live service's). */
  signatureHeader: string | undefined;
  signature: string | undefined;
}

export type DeliveryOutcome = { ok: true; delivery: Delivery; event: WebhookEvent } | { ok: false; delivery: Delivery; reason: string; message: string };

export interface Receiver {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

export async function startReceiver(options: {
  host?: string;
  port?: number;
  path?: string;
  secret: () => string | undefined;
  /** The replay check: the library's window when empty; `skipTimestampCheck` only when asked for by name. */
  replay?: { toleranceSec?: number; skipTimestampCheck?: true };
  onDelivery: (outcome: DeliveryOutcome) => void;
}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', async () => {
      const raw = new Uint8Array(Buffer.concat(chunks));
      const signature = getSignatureHeader(req.headers);
      const signatureHeader = ['x-service-signature', 'x-merx-signature'].find((h) => typeof req.headers[h] === 'string');
      const delivery: Delivery = { path: req.url ?? '/', raw, headers: req.headers, signatureHeader, signature };
      const secret = options.secret();
      try {
        if (!secret) throw Object.assign(new Error('no webhook secret yet'), { reason: 'no_secret' });
        const event = await constructWebhookEvent(raw, signature, secret, options.replay ?? {});
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        options.onDelivery({ ok: true, delivery, event });
      } catch (error) {
        const reason = String((error as { reason?: unknown }).reason ?? 'invalid');
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reason }));
        options.onDelivery({ ok: false, delivery, reason, message: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const path = options.path ?? '/webhooks';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostPart}:${port}${path.startsWith('/') ? path : `/${path}`}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
