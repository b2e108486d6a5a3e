// Webhook verifications per second: trx-rent/webhooks against a raw node:crypto HMAC-SHA256 with a
// constant-time compare, for 1 KB and 64 KB bodies given as strings and as Buffers. Both sides are
// measured in interleaved rounds in this one process; the median round counts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhookPayload, verifyWebhookSignature } from '../dist/webhooks/index.js';

const secret = 'f0'.repeat(32);

function bodyOf(size) {
  const fills = [];
  let text = '';
  for (let i = 0; text.length < size; i++) {
    fills.push({ provider: `provider-${i}`, amount: 65_000, price_sun: 30, cost_sun: 1_950_000, tx_id: 'ab'.repeat(32), verified: true });
    text = JSON.stringify({
      event: 'order.filled',
      data: { id: '5d0b8a0c-8f6e-4c1e-9d1e-000000000001', status: 'FILLED', amount: 65000, fills },
      timestamp: 1763000000,
    });
  }
  return text;
}

async function perSecond(fn, ms) {
  for (let i = 0; i < 500; i++) await fn();
  let count = 0;
  const started = performance.now();
  const end = started + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await fn();
    count += 100;
  }
  return count / ((performance.now() - started) / 1000);
}

async function measure(label, body, header, ms) {
  const raw = async () => {
    const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
    const got = Buffer.from(header.slice(7));
    return expected.length === got.length && timingSafeEqual(expected, got);
  };
  const ours = () => verifyWebhookSignature(body, header, secret);
  if (!(await ours()) || !(await raw())) throw new Error(`bench setup: ${label} did not verify`);
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const pair = r % 2 ? [null, await perSecond(raw, ms)] : [await perSecond(ours, ms), null];
    pair[r % 2 ? 0 : 1] = r % 2 ? await perSecond(ours, ms) : await perSecond(raw, ms);
    rounds.push(pair);
  }
  const median = (i) => rounds.map((x) => x[i]).sort((a, b) => a - b)[2];
  const value = median(0);
  const baseline = median(1);
  return { name: `verifyWebhookSignature, ${label}`, value, unit: '/s', baseline, ratio: value / baseline, target: '>= 0.95x', ok: value / baseline >= 0.95 };
}

export async function run() {
  const rows = [];
  for (const size of [1024, 64 * 1024]) {
    const text = bodyOf(size);
    const header = await signWebhookPayload(text, secret);
    const kb = `${Math.round(Buffer.byteLength(text) / 1024)} KB`;
    const ms = size > 4096 ? 400 : 300;
    rows.push(await measure(`${kb} string`, text, header, ms));
    rows.push(await measure(`${kb} Buffer`, Buffer.from(text), header, ms));
  }
  return { title: 'Webhook verification vs raw node:crypto HMAC-SHA256 + timingSafeEqual (verifications/s, median of 5 interleaved rounds)', rows };
}
