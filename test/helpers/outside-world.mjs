// Loaded with `node --import` into a process a test runs as a user would (a README block): the
// world beyond this machine, replaced. `fetch` to a loopback host goes through; to a host named in
// TRX_RENT_TEST_STUB_HOSTS (a webhook URL an example names) it is recorded, one JSON line per
// request in TRX_RENT_TEST_OUTSIDE_LOG, and answered 200; to any other host it fails, naming the
// host, so a block that would reach the internet (TronGrid, a registry) fails the test instead.
import { appendFileSync } from 'node:fs';

const stubbed = new Set((process.env.TRX_RENT_TEST_STUB_HOSTS ?? '').split(',').filter(Boolean));
const log = process.env.TRX_RENT_TEST_OUTSIDE_LOG;
const realFetch = globalThis.fetch;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

globalThis.fetch = async function outsideWorld(input, init) {
  const request = new Request(input, init);
  const { hostname } = new URL(request.url);
  if (LOOPBACK.test(hostname)) return realFetch(input, init);
  if (!stubbed.has(hostname)) throw new TypeError(`fetch failed: ${hostname} is beyond loopback, and this test run reaches only 127.0.0.1`);
  const body = request.body ? await request.text() : '';
  if (log) appendFileSync(log, `${JSON.stringify({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body })}\n`);
  return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
};
