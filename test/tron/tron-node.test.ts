/**
 * The TRON node client against a scripted loopback node: reads retried on 503 and network
 * faults, a broadcast never retried, java-tron's `{ Error }` answer and malformed bodies as
 * NODE_ERROR, redirects refused, timeouts, no credentials, and lenient parsing (absent zeros).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronNode, spendable } from '../../src/tron/node.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const script: Handler[] = [];
const seen: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];
let base = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ path: req.url ?? '', headers: req.headers, body });
    const next = script.shift();
    if (next) next(req, body, res);
    else res.writeHead(500).end();
  });
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const json =
  (value: unknown, status = 200): Handler =>
  (_req, _body, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const client = () => new TronNode({ baseUrl: `${base}/`, retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 500 });
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('TronNode', () => {
  it('reads retry 503 and resets, then parse leniently (absent values are 0, unknown fields kept)', async () => {
    seen.length = 0;
    script.push(json({}, 503), (req) => req.socket.destroy(), json({ EnergyLimit: 65_000, EnergyUsed: '1000', freeNetLimit: 600, extra: 'kept' }));
    const r = await client().getAccountResource(ADDRESS);
    expect(seen).toHaveLength(3);
    expect(r).toMatchObject({ EnergyLimit: 65_000, EnergyUsed: 1000, NetLimit: 0, extra: 'kept' });
    expect(spendable(r)).toEqual({ energy: 64_000, bandwidth: 600, freeBandwidth: 600 });
    expect(seen[0]!.path).toBe('/wallet/getaccountresource');
    expect(JSON.parse(seen[0]!.body)).toEqual({ address: ADDRESS, visible: true });
    expect(seen[0]!.headers['x-api-key']).toBeUndefined();
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('a broadcast is sent once, even when the answer is a 503', async () => {
    seen.length = 0;
    script.push(json({}, 503), json({ result: true }));
    await expect(client().broadcastTransaction({ txID: 'ab' })).rejects.toMatchObject({ code: 'NODE_ERROR', details: { status: 503 } });
    expect(seen).toHaveLength(1);
    script.length = 0;
  });

  it("a node's { Error }, a non-JSON body, a wrong shape and a redirect are typed errors", async () => {
    script.push(json({ Error: 'class org.tron.core.exception.BadItemException : bad address' }));
    await expect(client().getAccount(ADDRESS)).rejects.toMatchObject({ code: 'NODE_ERROR', message: expect.stringContaining('bad address') });
    script.push((_q, _b, res) => res.writeHead(200).end('<html>'));
    await expect(client().getChainParameters()).rejects.toMatchObject({ code: 'NODE_ERROR', message: expect.stringContaining('not JSON') });
    script.push(json({ blockID: 'nothex', block_header: {} }));
    await expect(client().getNowBlock()).rejects.toMatchObject({ code: 'NODE_ERROR', message: expect.stringContaining('unexpected answer') });
    script.push((_q, _b, res) => res.writeHead(302, { location: 'http://example.com/' }).end());
    await expect(client().getAccount(ADDRESS)).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
  });

  it('times out a node that never answers (each retry too), and refuses bad input before sending', async () => {
    seen.length = 0;
    const hang: Handler = () => undefined;
    script.push(hang, hang, hang);
    await expect(new TronNode({ baseUrl: base, timeoutMs: 100, retry: { baseDelayMs: 1, maxDelayMs: 1 } }).getAccount(ADDRESS)).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(seen).toHaveLength(3);
    seen.length = 0;
    await expect(client().getAccount('T123')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'address' } });
    await expect(client().getTransactionInfo('xyz')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'txId' } });
    expect(seen).toHaveLength(0);
    expect(() => new TronNode({ baseUrl: 'https://user:pass@node.example' })).toThrow(/credentials/);
    expect(() => new TronNode({ baseUrl: 'ftp://node.example' })).toThrow(/http/);
  });

  it('chain parameters as a map; a receipt only once in a block; a failed constant call names its code', async () => {
    script.push(json({ chainParameter: [{ key: 'getEnergyFee', value: 210 }, { key: 'getAllowTvmTransferTrc10' }] }));
    const params = await client().getChainParameters();
    expect(params.get('getEnergyFee')).toBe(210);
    expect(params.get('getAllowTvmTransferTrc10')).toBe(0);
    script.push(json({}));
    expect(await client().getTransactionInfo('a'.repeat(64))).toBeUndefined();
    script.push(json({ id: 'a'.repeat(64), blockNumber: 7, receipt: { energy_usage_total: 65_000, result: 'SUCCESS' } }));
    expect(await client().getTransactionInfo('a'.repeat(64))).toMatchObject({ blockNumber: 7, fee: 0, receipt: { energy_fee: 0, energy_usage_total: 65_000 } });
    script.push(json({ result: { code: 'CONTRACT_VALIDATE_ERROR', message: Buffer.from('No contract').toString('hex') } }));
    await expect(client().triggerConstantContract({ owner: ADDRESS, contract: ADDRESS, functionSelector: 'decimals()', parameter: '' })).rejects.toMatchObject({
      code: 'SIMULATION_FAILED',
      details: { node_code: 'CONTRACT_VALIDATE_ERROR', reason: 'No contract', reverted: false },
      message: expect.stringContaining('CONTRACT_VALIDATE_ERROR (No contract)'),
    });
  });
});
