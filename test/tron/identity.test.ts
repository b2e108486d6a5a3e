/**
 * One identity per transfer (src/tron/identity.ts) on a virtual clock: the status a node's
 * receipt and solidified block give, landing one signed transaction by re-broadcasting the same
 * bytes until it is confirmed, failed, expired or the deadline passes, and the two stores.
 * The node here is a scripted stand-in whose chain moves with the virtual clock.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TimeoutError, TrxRentError, virtualClock } from '../../src/index.js';
import { type TransferRecord, landTransfer, transferStatus } from '../../src/tron/identity.js';
import { fileTransferStore, memoryTransferStore } from '../../src/tron/transfer-store.js';
import type { TronNode } from '../../src/tron/node.js';

const TX = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);
const BLOCK_MS = 3_000;
const DEPTH = 19;

/** A node whose head moves with `time`; the receipt appears once `landsAt` (if any) has passed and a broadcast arrived. */
function scriptedNode(time: { now(): number }, script: { landsAt?: number; result?: string; receiptId?: string; failingReads?: number } = {}) {
  const calls = { info: 0, solid: 0 };
  let failing = script.failingReads ?? 0;
  let heard = false;
  const node = {
    async getTransactionInfo(id: string) {
      calls.info++;
      if (failing > 0) {
        failing--;
        throw new TrxRentError({ code: 'NODE_ERROR', message: 'POST /wallet/gettransactioninfobyid answered 429', details: { status: 429 } });
      }
      if (script.landsAt === undefined || !heard || time.now() < script.landsAt) return undefined;
      return {
        id: script.receiptId ?? id,
        blockNumber: 77,
        fee: 0,
        receipt: {
          result: script.result ?? 'SUCCESS',
          energy_usage: 0,
          energy_usage_total: 0,
          energy_fee: 0,
          origin_energy_usage: 0,
          net_usage: 0,
          net_fee: 0,
        },
      };
    },
    async getSolidifiedBlock() {
      calls.solid++;
      const head = Math.floor(time.now() / BLOCK_MS);
      return { number: head - DEPTH, id: '00'.repeat(32), timestamp: (head - DEPTH) * BLOCK_MS };
    },
  };
  return { node: node as unknown as TronNode, calls, hear: () => (heard = true) };
}

function manual(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

function record(now: number, over: Partial<TransferRecord> = {}): TransferRecord {
  return {
    key: 'order-7',
    tx_id: TX,
    signed: { txID: TX, raw_data: { expiration: now + 60_000 }, raw_data_hex: '0a02', signature: ['ee'.repeat(65)] },
    expiration: now + 60_000,
    from: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    amount_atomic: '1000000',
    created_at: now,
    ...over,
  };
}

describe('transferStatus', () => {
  it('reads a receipt as confirmed or failed, and refuses a receipt for another id', async () => {
    const time = manual(1_000_000_000);
    const ok = scriptedNode(time, { landsAt: 0 });
    ok.hear();
    expect(await transferStatus(ok.node, TX, time.now() + 60_000)).toMatchObject({ tx_id: TX, state: 'confirmed', block: 77, result: 'SUCCESS' });
    const reverted = scriptedNode(time, { landsAt: 0, result: 'REVERT' });
    reverted.hear();
    expect(await transferStatus(reverted.node, `0x${TX.toUpperCase()}`)).toMatchObject({ state: 'failed', result: 'REVERT' });
    const lying = scriptedNode(time, { landsAt: 0, receiptId: OTHER });
    lying.hear();
    const error = await transferStatus(lying.node, TX).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrxRentError);
    expect((error as TrxRentError).code).toBe('NODE_ERROR');
    expect((error as TrxRentError).message).toContain(OTHER);
    expect((error as TrxRentError).details).toMatchObject({ reason: 'RECEIPT_MISMATCH', tx_id: TX, answered_tx_id: OTHER });
  });

  it('is expired only once the solidified block is past the expiration; pending before, and without an expiration', async () => {
    const time = manual(1_000_000_000);
    const { node, calls } = scriptedNode(time);
    const expiration = time.now() + 60_000;
    expect(await transferStatus(node, TX)).toEqual({ tx_id: TX, state: 'pending' });
    expect(calls.solid).toBe(0);
    // The head passes the expiration, but the solidified block (19 blocks behind) does not yet.
    time.advance(60_000 + 10 * BLOCK_MS);
    const pending = await transferStatus(node, TX, expiration);
    expect(pending.state).toBe('pending');
    expect(pending.solidified_block_time).toBeLessThanOrEqual(expiration);
    time.advance(10 * BLOCK_MS);
    const expired = await transferStatus(node, TX, expiration);
    expect(expired).toMatchObject({ state: 'expired', expiration });
    expect(expired.solidified_block_time).toBeGreaterThan(expiration);
  });

  it('refuses an id that is not 64 hex characters', async () => {
    const { node } = scriptedNode(manual(0));
    await expect(transferStatus(node, 'nope')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'txId' } });
  });
});

describe('landTransfer', () => {
  it('re-broadcasts the same bytes (a duplicate counts as accepted) and waits out node faults until the receipt', async () => {
    const time = manual(1_000_000_000);
    const clock = virtualClock(time);
    const rec = record(time.now());
    const script = scriptedNode(time, { landsAt: time.now() + 20_000, failingReads: 3 });
    const sent: unknown[] = [];
    const status = await landTransfer(script.node, rec, {
      clock,
      deadline: time.now() + 50_000,
      rebroadcastEveryMs: 5_000,
      broadcast: async (signed) => {
        sent.push(signed);
        script.hear();
        if (sent.length > 1)
          throw new TrxRentError({ code: 'BROADCAST_FAILED', message: 'DUP_TRANSACTION_ERROR', details: { reason: 'DUP_TRANSACTION_ERROR' } });
      },
    });
    expect(status).toMatchObject({ tx_id: TX, state: 'confirmed' });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const s of sent) expect(s).toEqual(rec.signed);
    expect(time.now()).toBeGreaterThanOrEqual(rec.created_at + 20_000);
  });

  it('ends expired only after the solidified block passes the expiration; never re-broadcasts an expired transaction', async () => {
    const time = manual(1_000_000_000);
    const rec = record(time.now());
    const { node } = scriptedNode(time); // never lands
    let broadcasts = 0;
    let lastBroadcastAt = 0;
    const status = await landTransfer(node, rec, {
      clock: virtualClock(time),
      deadline: time.now() + 10 * 60_000,
      broadcast: async () => {
        broadcasts++;
        lastBroadcastAt = time.now();
        throw new TrxRentError({ code: 'BROADCAST_FAILED', message: 'refused', details: { reason: 'SERVER_BUSY' } });
      },
    });
    expect(status.state).toBe('expired');
    expect(status.solidified_block_time).toBeGreaterThan(rec.expiration);
    expect(time.now()).toBeGreaterThan(rec.expiration + DEPTH * BLOCK_MS - 2 * BLOCK_MS);
    expect(broadcasts).toBeGreaterThanOrEqual(2);
    expect(lastBroadcastAt).toBeLessThan(rec.expiration);
  });

  it('at the deadline: a TimeoutError with tx_id, expiration and transfer_sent "unknown"', async () => {
    const time = manual(1_000_000_000);
    const rec = record(time.now());
    const { node } = scriptedNode(time);
    const error = await landTransfer(node, rec, { clock: virtualClock(time), deadline: time.now() + 15_000, broadcast: async () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).details).toEqual({ tx_id: TX, expiration: rec.expiration, transfer_sent: 'unknown' });
    expect((error as Error).message).toContain(TX);
    expect(time.now() - rec.created_at).toBeLessThanOrEqual(15_000);
  });

  it('stops at once on a receipt for another id, and on an abort', async () => {
    const time = manual(1_000_000_000);
    const lying = scriptedNode(time, { landsAt: 0, receiptId: OTHER });
    const options = { clock: virtualClock(time), deadline: time.now() + 60_000, broadcast: async () => void lying.hear() };
    await expect(landTransfer(lying.node, record(time.now()), options)).rejects.toMatchObject({ code: 'NODE_ERROR', details: { reason: 'RECEIPT_MISMATCH' } });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(landTransfer(scriptedNode(time).node, record(time.now()), { ...options, signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('stores', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('memory: put, get (a copy), delete', async () => {
    const store = memoryTransferStore();
    const rec = record(5);
    await store.put(rec);
    const got = await store.get('order-7');
    expect(got).toEqual(rec);
    got!.tx_id = OTHER;
    expect((await store.get('order-7'))!.tx_id).toBe(TX);
    await store.delete('order-7');
    expect(await store.get('order-7')).toBeUndefined();
  });

  it('file: one 0600 journal in a 0700 folder shared by every key; a planted symlink is refused, never followed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-transfers-'));
    dirs.push(dir);
    const store = fileTransferStore(join(dir, 'transfers'));
    expect(await store.get('order-7')).toBeUndefined();
    const rec = record(5, { broadcast_at: 9 });
    await store.put(rec);
    await store.put(record(5, { key: 'k2' }));
    expect(readdirSync(join(dir, 'transfers')).sort()).toEqual(['transfers.journal']);
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, 'transfers', 'transfers.journal')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'transfers')).mode & 0o777).toBe(0o700);
    }
    expect(await store.get('order-7')).toEqual(rec);
    // Another process's view (a second store on the folder) reads what the first wrote.
    expect(await fileTransferStore(join(dir, 'transfers')).get('k2')).toMatchObject({ key: 'k2' });
    await store.delete('order-7');
    expect(await store.get('order-7')).toBeUndefined();

    // A journal planted as a symlink: refused, and its target untouched.
    const other = join(dir, 'other');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(other, { mode: 0o700 });
    symlinkSync(victim, join(other, 'transfers.journal'));
    await expect(fileTransferStore(other).put(rec)).rejects.toMatchObject({ code: 'JOURNAL_UNSAFE' });
    expect(readFileSync(victim, 'utf8')).toBe('keep');
    expect(lstatSync(join(other, 'transfers.journal')).isSymbolicLink()).toBe(true);
  });
});

describe("the mock's solidified head", () => {
  it('/walletsolidity/getnowblock answers the block 19 behind the head, in getnowblock shape', async () => {
    const { createManualClock, startMockServer } = await import('../../src/mock/index.js');
    const { TronNode } = await import('../../src/tron/node.js');
    // A manual clock: no block boundary can fall between the two reads.
    const mock = await startMockServer({ seed: 3, clock: createManualClock(Date.UTC(2026, 10, 28, 12, 0, 1)) });
    try {
      const node = new TronNode({ baseUrl: mock.url });
      const [head, solid] = await Promise.all([node.getNowBlock(), node.getSolidifiedBlock()]);
      expect(head.number - solid.number).toBe(19);
      expect(head.timestamp! - solid.timestamp!).toBe(19 * BLOCK_MS);
      expect(solid.id).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await mock.close();
    }
  });
});
