/**
 * A webhook receiver on node:http: verify the signature over the raw body, answer 200 at once,
 * process afterwards. Run: WEBHOOK_SECRET=… npx tsx examples/webhook-receiver.ts
 * (works unchanged with the mock server: register http://127.0.0.1:3000/webhooks there).
 */
import { createServer } from 'node:http';
import { WebhookSignatureError, constructWebhookEvent, getSignatureHeader, isKnownEvent } from 'trx-rent/webhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret returned by webhooks.create');

const seen = new Set<string>(); // deliveries can arrive twice: de-duplicate on something stable

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const raw = Buffer.concat(chunks); // never JSON.parse + re-stringify before verifying
    try {
      const event = await constructWebhookEvent(raw, getSignatureHeader(req.headers), secret);
      res.writeHead(200).end('ok'); // reply promptly; the work happens after
      const key = `${event.event}:${JSON.stringify(event.data.id ?? event.data.tx_id ?? event.timestamp)}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (isKnownEvent(event)) {
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
        }
      } else {
        console.log(`unhandled event type ${event.event}`);
      }
    } catch (error) {
      const reason = error instanceof WebhookSignatureError ? error.reason : 'error';
      res.writeHead(400).end(reason);
    }
  });
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log('listening on http://127.0.0.1:3000/webhooks'));
