/**
 * The CLI's one TRON node setting, in-process against the mock: TRX_RENT_TRON_NODE_API_KEY goes
 * to the node only (as TRON-PRO-API-KEY, never to the account API), the profile's tron_node is
 * read when no flag or variable names a node, and a flag beats both. Every request the run makes
 * is recorded with its headers through the run's fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { ADDRESS, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 33, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
});
afterAll(() => mock.close());

/** A fetch that records origin, path and the node-key header of every request; `other` stands for a second node. */
function recorder(other: string) {
  const seen: Array<{ url: URL; key: string | null; apiKey: string | null }> = [];
  const fetcher: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    seen.push({ url, key: request.headers.get('tron-pro-api-key'), apiKey: request.headers.get('x-api-key') });
    // The "other" node is the mock under another name: same answers, a different origin.
    const target = url.origin === other ? `${mock.url}${url.pathname}${url.search}` : request.url;
    return fetch(target, init);
  };
  return { seen, fetcher };
}

describe('the TRON node setting', { timeout: 60_000 }, () => {
  it('TRX_RENT_TRON_NODE_API_KEY reaches the node only; the account API never sees it', async () => {
    const other = 'http://127.0.0.2:1';
    const { seen, fetcher } = recorder(other);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_TRON_NODE: other, TRX_RENT_TRON_NODE_API_KEY: 'tg-cli-key' };
    const r = await runCliInProcess(['ensure', ADDRESS, '--energy', '65000', '--yes', '--json'], { env, fetch: fetcher, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).order).not.toBeNull();
    const toNode = seen.filter((s) => s.url.origin === other);
    const toApi = seen.filter((s) => s.url.origin === mock.url);
    expect(toNode.length).toBeGreaterThan(0);
    expect(toNode.every((s) => s.key === 'tg-cli-key' && s.apiKey === null)).toBe(true);
    expect(toApi.some((s) => s.url.pathname === '/api/v1/orders')).toBe(true);
    expect(toApi.every((s) => s.key === null)).toBe(true);
  });

  it('profile tron_node is read when nothing else names a node; --tron-node beats it', async () => {
    const configDir = tempDir();
    const other = 'http://127.0.0.3:1';
    const set = await runCliInProcess(['config', 'set', 'tron_node', other, '--json'], { configDir });
    expect(set.code, set.stderr).toBe(0);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const first = recorder(other);
    const r = await runCliInProcess(['ensure', ADDRESS, '--energy', '1', '--yes', '--json'], { env, configDir, fetch: first.fetcher });
    expect(r.code, r.stderr).toBe(0);
    expect(first.seen.some((s) => s.url.origin === other && s.url.pathname === '/wallet/getaccountresource')).toBe(true);
    const second = recorder(other);
    const flagged = await runCliInProcess(['ensure', ADDRESS, '--energy', '1', '--yes', '--json', '--tron-node', mock.url], {
      env,
      configDir,
      fetch: second.fetcher,
    });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(second.seen.some((s) => s.url.origin === other)).toBe(false);
    expect(second.seen.some((s) => s.url.origin === mock.url && s.url.pathname === '/wallet/getaccountresource')).toBe(true);
  });

  it('mock fund: TRX first (the address then exists on the node), then USDT; nothing to fund or a bad amount is a usage error', async () => {
    const address = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const getaccount = async () =>
      (await (await fetch(`${mock.url}/wallet/getaccount`, { method: 'POST', body: JSON.stringify({ address, visible: true }) })).json()) as {
        address?: string;
        balance?: number;
      };
    expect(await getaccount()).toEqual({});
    const r = await runCliInProcess(['mock', 'fund', address, '--trx', '2.5', '--usdt', '7', '--base-url', mock.url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ address, trx_sun: 2_500_000, usdt: '7' });
    expect(await getaccount()).toMatchObject({ address, balance: 2_500_000 });
    expect((await runCliInProcess(['mock', 'fund', address, '--base-url', mock.url, '--json'])).code).toBe(2);
    expect((await runCliInProcess(['mock', 'fund', address, '--trx', '-1', '--base-url', mock.url, '--json'])).code).toBe(2);
    const bad = await fetch(`${mock.url}/__mock/fund`, { method: 'POST', body: JSON.stringify({ address }) });
    expect(bad.status).toBe(400);
  });

  it('status names the TRON node and where the setting comes from', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const onMock = await runCliInProcess(['status', '--json'], { env });
    expect(onMock.code, onMock.stderr).toBe(0);
    expect(json(onMock).tron_node).toEqual({ url: mock.url, source: "the base URL's reference mock" });
    const set = await runCliInProcess(['status', '--json'], { env: { ...env, TRX_RENT_TRON_NODE: 'https://node.example.com' } });
    expect(json(set).tron_node).toEqual({ url: 'https://node.example.com', source: 'TRX_RENT_TRON_NODE' });
  });
});
