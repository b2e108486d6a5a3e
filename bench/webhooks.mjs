// Webhook verifications per second: trx-rent/webhooks (Web Crypto) vs node:crypto HMAC + timingSafeEqual.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhookPayload, verifyWebhookSignature } from '../dist/webhooks/index.js';

const secret = 'f0'.repeat(32);
const body = JSON.stringify({
  event: 'order.filled',
  data: { id: '5d0b8a0c-8f6e-4c1e-9d1e-000000000001', status: 'FILLED', amount: 65000, total_cost_sun: 1950000, fills: [] },
  timestamp: 1763000000,
});

async function perSecond(fn, ms = 1500) {
  for (let i = 0; i < 2000; i++) await fn();
  let count = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 200; i++) await fn();
    count += 200;
  }
  return count / (ms / 1000);
}

export async function run() {
  const header = await signWebhookPayload(body, secret);
  const rawNode = async () => {
    const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
    const got = Buffer.from(header.slice(7));
    return expected.length === got.length && timingSafeEqual(expected, got);
  };
  if (!(await verifyWebhookSignature(body, header, secret)) || !(await rawNode())) throw new Error('bench setup: signature did not verify');
  const rounds = [];
  for (let r = 0; r < 3; r++) rounds.push([await perSecond(() => verifyWebhookSignature(body, header, secret)), await perSecond(rawNode)]);
  const med = (i) => rounds.map((x) => x[i]).sort((a, b) => a - b)[1];
  const ours = med(0);
  const node = med(1);
  return {
    title: 'Webhook verification throughput (same body, same secret)',
    rows: [
      { name: 'verifyWebhookSignature (trx-rent/webhooks, node:crypto fast path)', value: ours, unit: 'verifications/s' },
      { name: 'node:crypto HMAC + timingSafeEqual', value: node, unit: 'verifications/s' },
      { name: 'ours vs node:crypto (throughput ratio)', value: ours, baseline: node, unit: '/s', ratio: ours / node },
    ],
  };
}
