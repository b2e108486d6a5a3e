/**
 * `client.chain.watchTransfers` on the mock's manual clock: deposits to many addresses arriving
 * block after block while the watcher is stopped and started again on its journal file (a
 * restart), each reported exactly once; at a chosen depth, reported unconfirmed and then confirmed
 * once solidified; transfers of another token or to other addresses never reported; the node
 * requests within the budget. The judge is the mock's chain (every USDT transfer to a watched
 * address).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, virtualClock } from '../../src/index.js';
import { type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import type { Deposit, WatchEvent } from '../../src/tron/watch.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 4104, clock: createManualClock(Date.UTC(2026, 11, 1)), rateLimits: false });
});
afterAll(async () => {
  await mock?.close();
});

const client = () => new TrxRent({ baseUrl: mock.url, apiKey: 'unused', tronNode: mock.url, clock: virtualClock(mock.state.clock), maxRetries: 3 });

/** One deposit of `atomic` USDT to `to`, landing in the current block. */
function deposit(to: string, atomic: bigint): string {
  const chain = mock.state.chain;
  return chain.syntheticTransfer({ token: chain.token('USDT')!, to, amount: atomic, label: `deposit ${to}` }).txid;
}

describe('chain.watchTransfers', { timeout: 60_000 }, () => {
  it('reports each deposit once, solidified, across restarts on the same journal', async () => {
    const addresses = Array.from({ length: 200 }, (_, i) => labelAddress(`watch a ${i}`));
    const journal = join(mkdtempSync(join(tmpdir(), 'watch-')), 'deposits.journal');
    const sent = new Map<string, bigint>();
    const reported: Deposit[] = [];
    let requests = 0;
    let first: number | undefined;
    // Ten restarts; deposits land while the watcher runs and while it is stopped.
    for (let life = 0; life < 10; life++) {
      const watch = await client().chain.watchTransfers({ addresses, token: 'USDT', journal, fromBlock: first, maxRequestsPerMinute: 600 });
      for (let step = 0; step < 6; step++) {
        for (let k = 0; k < 3; k++) {
          const to = addresses[(life * 37 + step * 11 + k * 5) % addresses.length]!;
          const atomic = BigInt(1_000_000 + life * 100 + step * 10 + k);
          sent.set(deposit(to, atomic), atomic);
        }
        // Noise: USDC to a watched address, USDT to another address.
        mock.state.chain.syntheticTransfer({ token: mock.state.chain.token('USDC')!, to: addresses[0]!, amount: 5n, label: 'usdc' });
        deposit(labelAddress(`not watched ${life} ${step}`), 7n);
        await mock.state.advance(3_000 * (1 + (step % 3)));
        for (const e of await watch.poll()) if (e.type === 'deposit') reported.push(e.deposit);
        first ??= watch.cursor! - 10;
      }
      requests += watch.requests;
      await watch.close();
      // While it is stopped, more land.
      sent.set(deposit(addresses[life]!, 42n + BigInt(life)), 42n + BigInt(life));
      await mock.state.advance(6_000);
    }
    // Drain: let every block solidify and read to the head.
    await mock.state.advance(3_000 * 25);
    const last = await client().chain.watchTransfers({ addresses, token: 'USDT', journal, maxRequestsPerMinute: 600 });
    for (let i = 0; i < 5; i++) for (const e of await last.poll()) if (e.type === 'deposit') reported.push(e.deposit);
    requests += last.requests;
    await last.close();

    const ids = reported.map((d) => `${d.tx_id}:${d.log_index}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Map(reported.map((d) => [d.tx_id, BigInt(d.amount_atomic)]))).toEqual(sent);
    expect(reported.every((d) => d.confirmed && d.token === 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    // The budget: a few requests a block, whatever the number of addresses.
    const blocks = Math.max(...reported.map((d) => d.block)) - first! + 1;
    expect(requests).toBeLessThan(blocks * 2 + 11 * 8);
  });

  it('at a chosen depth: reported unconfirmed, then confirmed once solidified, never twice', async () => {
    const addresses = Array.from({ length: 5 }, (_, i) => labelAddress(`watch b ${i}`));
    const journal = join(mkdtempSync(join(tmpdir(), 'watch-')), 'deposits.journal');
    const watch = await client().chain.watchTransfers({ addresses, token: 'USDT', journal, confirmations: 1 });
    await watch.poll();
    const tx = deposit(addresses[2]!, 123_456n);
    await mock.state.advance(3_000);
    const events: WatchEvent[] = [];
    events.push(...(await watch.poll()));
    expect(events.map((e) => [e.type, e.deposit.tx_id, e.deposit.confirmed])).toEqual([['deposit', tx, false]]);
    await watch.close();
    // Restarted, and the block solidifies.
    await mock.state.advance(3_000 * 20);
    const again = await client().chain.watchTransfers({ addresses, token: 'USDT', journal, confirmations: 1 });
    const later = [...(await again.poll()), ...(await again.poll())];
    expect(later.map((e) => [e.type, e.deposit.tx_id, e.deposit.confirmed])).toEqual([['confirmed', tx, true]]);
    expect(await again.poll()).toEqual([]);
    await again.close();
  });

  it('the mock node serves gettransactioninfobyblocknum as java-tron does: the receipts with their logs, [] beyond the head', async () => {
    const to = labelAddress('watch c');
    const tx = deposit(to, 9n);
    const node = await client().chain.node();
    const head = (await node.getNowBlock()).number;
    const infos = await node.getTransactionInfoByBlockNum(head);
    const mine = infos.find((i) => i.id === tx);
    expect(mine?.log?.[0]?.topics?.[0]).toBe('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect(await node.getTransactionInfoByBlockNum(head + 5)).toEqual([]);
    expect(await node.getTransactionInfoByBlockNum(head, { solidified: true })).toEqual([]);
  });
});
