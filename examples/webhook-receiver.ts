/**
 * A webhook receiver on node:http: verify the signature over the raw body, answer 200 at once,
 * process afterwards. Run: WEBHOOK_SECRET=… npx tsx examples/webhook-receiver.ts
 * (works unchanged with the mock server: register http://127.0.0.1:3000/webhooks there).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEvent, WebhookSignatureError, constructWebhookEvent, getSignatureHeader } from 'trx-rent/webhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret returned by webhooks.create');

const seen = new Set<string>(); // bounded in a real service (an LRU, or a table with a TTL)

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const raw = Buffer.concat(chunks); // never JSON.parse + re-stringify before verifying
    try {
      const event = await constructWebhookEvent(raw, getSignatureHeader(req.headers), secret);
      res.writeHead(200).end('ok'); // reply promptly; the work happens after
      // A delivery can arrive twice: de-duplicate on the signed body itself.
      const key = raw.toString('base64');
      if (seen.has(key)) return;
      seen.add(key);
      switch (event.event) {
        case 'order.filled':
          console.log(`order ${event.data.id} filled for ${event.data.total_cost_sun} SUN`);
          break;
        case 'order.failed':
          console.log(`order ${event.data.id} failed`);
          break;
        case 'deposit.received':
          console.log(`deposit ${event.data.tx_id}: ${event.data.amount_sun} SUN`);
          break;
        case 'withdrawal.completed':
          console.log(`withdrawal ${event.data.id} completed`);
          break;
        default: // an event type newer than this version, delivered as sent
          console.log(`unhandled event type ${(event as WebhookEvent).event}`);
      }
    } catch (error) {
      const reason = error instanceof WebhookSignatureError ? error.reason : 'error';
      res.writeHead(400).end(reason);
    }
  });
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/webhooks`);
});
