/**
 * POST /api/v1/broadcast through the SDK (`client.transactions.broadcast`) against the mock, one
 * test per status the table gives it: 200 (and the same tx_id for a retry), 400, 401, 403, 502.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastFailedError, ForbiddenError, TrxRent, UnauthorizedError, ValidationError } from '../../src/index.js';
import { ENDPOINTS } from '../../src/api/endpoints.js';
import type { MockServer } from '../../src/mock/index.js';
import { buildTrxTransfer, signTransaction } from '../../src/protocol/tron-transaction.js';
import { TARGET, USER_ADDRESS, USER_KEY, manualServer, raw } from '../mock/helpers.js';

let mock: MockServer;
let client: TrxRent;

beforeAll(async () => {
  mock = await manualServer();
  client = new TrxRent({ apiKey: mock.apiKey, baseUrl: mock.url, maxRetries: 0 });
});
afterAll(() => mock.close());

const transfer = (amountSun: number, now = mock.state.now()) => signTransaction(buildTrxTransfer({ from: USER_ADDRESS, to: TARGET, amountSun, now }), USER_KEY);

describe('client.transactions.broadcast (POST /api/v1/broadcast)', () => {
  it('is the table entry broadcastTransaction: permission broadcast, natural design', () => {
    const e = ENDPOINTS.broadcastTransaction;
    expect([e.method, e.path, e.auth, e.source, e.sdk]).toEqual(['POST', '/api/v1/broadcast', 'broadcast', 'natural-design', 'transactions.broadcast']);
    expect(e.errors.map((x) => [x.code, x.status])).toEqual([
      ['VALIDATION_ERROR', 400],
      ['BROADCAST_FAILED', 502],
    ]);
  });

  it('200 { tx_id, status: pending }; the simulated chain holds it; a retry answers the same tx_id', async () => {
    const tx = transfer(7);
    const { data, response } = await client.transactions.broadcast({ signed_tx: tx }).withResponse();
    expect(response.status).toBe(200);
    expect(data).toEqual({ tx_id: tx.txID.toLowerCase(), status: 'pending' });
    expect(mock.state.chain.transactions.has(tx.txID.toLowerCase())).toBe(true);
    expect(await client.transactions.broadcast({ signed_tx: tx })).toEqual({ tx_id: tx.txID.toLowerCase(), status: 'pending' });
  });

  it('400 VALIDATION_ERROR for a badly signed transaction (the signature is checked before the network)', async () => {
    const tx = transfer(8);
    const forged = { ...tx, signature: [tx.signature[0]!.replace(/^../, (b) => (b === '00' ? '01' : '00'))] };
    const error = await client.transactions.broadcast({ signed_tx: forged }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    expect(mock.state.chain.transactions.has(tx.txID.toLowerCase())).toBe(false);
  });

  it('400 VALIDATION_ERROR from the mock for a malformed body; the SDK refuses it before sending', async () => {
    const r = await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: { txID: 'nope' } } });
    expect([r.status, r.json.error.code, r.json.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'signed_tx.txID']);
    const local = await client.transactions.broadcast({ signed_tx: { txID: 'nope' } } as never).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(ValidationError);
    expect((local as ValidationError).status).toBeUndefined();
  });

  it('401 UNAUTHORIZED with a wrong key', async () => {
    const stranger = new TrxRent({ apiKey: 'sk_live_wrong', baseUrl: mock.url, maxRetries: 0 });
    await expect(stranger.transactions.broadcast({ signed_tx: transfer(9) })).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('403 FORBIDDEN for a key without the broadcast permission', async () => {
    const narrow = mock.state.createAccount({ trx_sun: 1e9, permissions: ['view_orders', 'view_balance', 'create_orders'] });
    const other = new TrxRent({ apiKey: narrow.api_key, baseUrl: mock.url, maxRetries: 0 });
    const error = await other.transactions.broadcast({ signed_tx: transfer(10) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).details).toMatchObject({ permission: 'broadcast' });
  });

  it('502 BROADCAST_FAILED when the simulated network refuses (an expired transaction)', async () => {
    const stale = transfer(11, mock.state.now() - 2 * 3_600_000);
    const error = await client.transactions.broadcast({ signed_tx: stale }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BroadcastFailedError);
    expect((error as BroadcastFailedError).status).toBe(502);
    expect((error as BroadcastFailedError).details).toMatchObject({ reason: 'TRANSACTION_EXPIRATION_ERROR' });
  });
});
