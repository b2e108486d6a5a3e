/**
 * A TRON node that echoes its credential back (TronGrid's TRON-PRO-API-KEY, or a custom header)
 * in an error body, a simulation's revert message or a broadcast's refusal never gets it into
 * the SDK's error (message, stack, details), a returned message, or the CLI's stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronNode } from '../../src/tron/node.js';
import { type RecordedRequest, type Reply, scriptedServer } from '../helpers/scripted-server.js';
import { runCliInProcess } from '../cli/run.js';

const KEY = '3f8c2a71-5be4-4d0e-9a6c-0c1d2e3f4a5b';
const TOKEN = 'Bearer node-secret-7d1e9c';
const hex = (text: string) => Buffer.from(text).toString('hex');
const TXID = 'ab'.repeat(32);

/** Each answer repeats the request's credential, as a careless node or proxy does. */
function echo(req: RecordedRequest): Reply {
  const said = `${req.headers['tron-pro-api-key'] ?? ''} ${req.headers.authorization ?? ''}`.trim();
  if (req.url.endsWith('/triggerconstantcontract'))
    return { status: 200, body: { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hex(`key ${said} may not call`) } } };
  if (req.url.endsWith('/broadcasttransaction')) return { status: 200, body: { result: false, code: 'SIGERROR', message: hex(`refused for ${said}`) } };
  return { status: 200, body: { Error: `invalid API key ${said}: see https://www.trongrid.io` } };
}

let node: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  node = await scriptedServer(echo);
});
afterAll(async () => {
  await node?.close();
});

/** Everything an error shows, in every form a program prints it. */
const shown = (error: unknown) => [String(error), (error as Error).stack ?? '', JSON.stringify((error as { details?: unknown }).details ?? {})].join('\n');

describe("a node's echo of its credential", () => {
  it('is masked in NODE_ERROR, SIMULATION_FAILED and a broadcast refusal', async () => {
    const client = new TronNode({ baseUrl: node.url, apiKey: KEY, headers: { Authorization: TOKEN }, maxRetries: 0 });
    const failures = await Promise.all([
      client.getAccount('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8').catch((e: unknown) => e),
      client
        .triggerConstantContract({
          owner: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
          contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          functionSelector: 'balanceOf(address)',
          parameter: '00'.repeat(32),
        })
        .catch((e: unknown) => e),
    ]);
    expect(failures.map((e) => (e as { code?: string }).code)).toEqual(['NODE_ERROR', 'SIMULATION_FAILED']);
    for (const error of failures) {
      expect(shown(error)).toContain('[redacted]'); // the echo was there, and masked
      expect(shown(error)).not.toContain(KEY);
      expect(shown(error)).not.toContain('node-secret-7d1e9c');
    }
    const refused = await client.broadcastTransaction({ txID: TXID, raw_data: {}, signature: [] });
    expect(refused.message).toContain('[redacted]');
    expect(JSON.stringify(refused)).not.toContain(KEY);
    // The credential was sent (to the node only): masking is not the same as not sending.
    expect(node.requests[0]!.headers['tron-pro-api-key']).toBe(KEY);
  });

  it("is masked on the CLI's stderr (TRX_RENT_TRON_NODE_API_KEY)", async () => {
    const r = await runCliInProcess(['tx', TXID, '--node', node.url], {
      env: { TRX_RENT_TRON_NODE_API_KEY: KEY, TRX_RENT_BASE_URL: 'http://127.0.0.1:9', TRX_RENT_API_KEY: 'sk_test_unused' },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/invalid API key \[redacted\]/);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  });
});
