/**
 * A row whose broadcast answer was lost is driven with the SAME signed bytes, never re-signed,
 * until its expiration has passed the solidified block; only then is it signed anew (once). On
 * the mock's manual clock (the SDK on virtualClock over it), through the hostile proxy: the
 * proxy's log shows every broadcast's bytes, the mock's chain is the judge of what was paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, virtualClock } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { MemoryJournal } from '../../src/workflows/payouts/index.js';
import { type HostileProxy, hostileProxy } from '../helpers/hostile-proxy.js';
import { account, paid, payouts, sender } from './payouts-helpers.js';

let mock: MockServer;
let proxy: HostileProxy;
beforeAll(async () => {
  mock = await startMockServer({ seed: 321, rateLimits: false, clock: 'manual', timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  proxy = await hostileProxy(mock.url, { seed: 7 });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const BROADCAST = /^POST \/api\/v1\/broadcast$/;
const broadcasts = () =>
  proxy.log
    .filter((l) => BROADCAST.test(`${l.method} ${l.path}`))
    .map((l) => JSON.parse(l.body).signed_tx as { txID: string; raw_data_hex: string; signature: string[] });

describe('a lost broadcast answer', { timeout: 60_000 }, () => {
  it('lands the same bytes on resume: one signature, one payment', async () => {
    const s = sender(mock, 11);
    const rows = payouts(mock, 1, 'lost-answer');
    const acct = account(mock);
    const client = new TrxRent({ baseUrl: proxy.url, apiKey: acct.apiKey, tronNode: proxy.url, clock: virtualClock(mock.state.clock), maxRetries: 0 });
    const journal = new MemoryJournal();
    proxy.log.length = 0;
    // Accepted by the network, answer lost; and the receipt reads fail for a while too.
    proxy.setRules([
      { match: BROADCAST, fault: 'lost', times: 1 },
      { match: /gettransactioninfobyid/, fault: '5xx', times: 3 },
    ]);
    const report = await client.transfers.sendMany(rows, { signer: { privateKey: s.privateKey }, journal, expirationMs: 120_000 });
    const sent = broadcasts();
    expect(new Set(sent.map((b) => b.txID)).size).toBe(1);
    expect(report.confirmed).toBe(1);
    expect(report.rows[0]!.tx_id).toBe(sent[0]!.txID);
    expect(paid(mock, s.address).get(rows[0]!.to)?.count).toBe(1);
    // One signature, written down with its broadcast_at before the request left: nothing signed again.
    const records = journal.entries().filter((e) => e.type === 'record' || e.type === 'broadcast');
    expect(records.map((e) => `${e.type} ${e.type === 'record' ? e.record.tx_id : e.type === 'broadcast' ? e.tx_id : ''}`)).toEqual([
      `record ${sent[0]!.txID}`,
    ]);
    expect(records[0]).toMatchObject({ record: { broadcast_at: expect.any(Number) } });
  });

  it('a broadcast answer held past the client timeout (the transaction accepted): the row lands once, one signature', async () => {
    const s = sender(mock, 13);
    const rows = payouts(mock, 1, 'held-answer');
    const acct = account(mock);
    // Per-request timeout 1 s (real time); the proxy forwards the broadcast, then holds its answer 2.5 s and resets.
    const client = new TrxRent({
      baseUrl: proxy.url,
      apiKey: acct.apiKey,
      tronNode: proxy.url,
      clock: virtualClock(mock.state.clock),
      timeoutMs: 1_000,
      maxRetries: 0,
    });
    const journal = new MemoryJournal();
    proxy.log.length = 0;
    proxy.setRules([{ match: BROADCAST, fault: 'timeout', holdMs: 2_500, times: 1 }]);
    const report = await client.transfers.sendMany(rows, { signer: { privateKey: s.privateKey }, journal, expirationMs: 120_000 });
    proxy.setRules([]);
    expect(proxy.log.filter((l) => l.fault).map((l) => `${l.fault} ${l.method} ${l.path}`)).toEqual(['timeout POST /api/v1/broadcast']);
    const sent = broadcasts();
    expect(new Set(sent.map((b) => b.txID)).size).toBe(1);
    const txId = sent[0]!.txID;
    // The held broadcast reached the network: the chain holds that very transaction, and pays the row once.
    expect(mock.state.chain.transactions.get(txId)?.transfer?.to).toBe(rows[0]!.to);
    expect(paid(mock, s.address).get(rows[0]!.to)).toEqual({ count: 1, atomic: 1_000_001n });
    expect(report.confirmed).toBe(1);
    expect(report.rows[0]!.tx_id).toBe(txId);
    // The journal: one signed record, confirmed with that transaction; nothing signed again.
    const entries = journal.entries();
    expect(entries.filter((e) => e.type === 'record').map((e) => (e.type === 'record' ? e.record.tx_id : ''))).toEqual([txId]);
    expect(entries.filter((e) => e.type === 'confirmed').map((e) => (e.type === 'confirmed' ? e.tx_id : ''))).toEqual([txId]);
  });

  it('re-broadcasts the same bytes while the transaction may land, and signs anew only after the solidified block passes its expiration', async () => {
    const s = sender(mock, 12);
    const rows = payouts(mock, 1, 'blackhole');
    const acct = account(mock);
    const clock = virtualClock(mock.state.clock);
    const client = new TrxRent({ baseUrl: proxy.url, apiKey: acct.apiKey, tronNode: proxy.url, clock, maxRetries: 0 });
    const node = await client.resources.node();
    const journal = new MemoryJournal();
    proxy.log.length = 0;
    // Every broadcast vanishes before it reaches the network (the caller cannot tell).
    proxy.setRules([{ match: BROADCAST, fault: 'drop-request' }]);
    const options = { signer: { privateKey: s.privateKey }, journal, expirationMs: 120_000, rowTimeoutMs: 60_000, rebroadcastEveryMs: 5_000 };
    const first = await client.transfers.sendMany(rows, options);
    expect(first.pending).toBe(1);
    const record = journal.entries().find((e) => e.type === 'record');
    const x = record?.type === 'record' ? record.record : undefined;
    expect(x).toBeDefined();
    // A resume before the expiration has passed the solidified block: the same bytes again, no new signature.
    const second = await (await client.transfers.batch(rows, options)).resume();
    expect(second.pending).toBe(1);
    const solid = await node.getSolidifiedBlock();
    expect(solid.timestamp!).toBeLessThanOrEqual(x!.expiration);
    let sent = broadcasts();
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.every((b) => b.txID === x!.tx_id && b.raw_data_hex === x!.signed.raw_data_hex && b.signature[0] === x!.signed.signature[0])).toBe(true);
    expect(paid(mock, s.address).get(rows[0]!.to)).toBeUndefined();

    // The network works again, but only after the expiration passed the solidified block.
    proxy.setRules([]);
    mock.state.advance(x!.expiration - mock.state.clock.now() + 90_000);
    const third = await (await client.transfers.batch(rows, options)).resume();
    expect(third.confirmed).toBe(1);
    sent = broadcasts();
    const ids = [...new Set(sent.map((b) => b.txID))];
    expect(ids.length).toBe(2);
    expect(ids[0]).toBe(x!.tx_id);
    const y = ids[1]!;
    expect(third.rows[0]!.tx_id).toBe(y);
    // The old record was forgotten (expired) before the new one was signed; the chain paid once, with the new one.
    const kinds = journal
      .entries()
      .filter((e) => e.type === 'record' || e.type === 'delete')
      .map((e) => (e.type === 'record' ? e.record.tx_id : 'delete'));
    expect(kinds.indexOf('delete')).toBeGreaterThan(kinds.lastIndexOf(x!.tx_id));
    expect(kinds.indexOf(y)).toBeGreaterThan(kinds.indexOf('delete'));
    const yRecord = journal.entries().find((e) => e.type === 'record' && e.record.tx_id === y);
    expect(yRecord?.type === 'record' && yRecord.record.created_at).toBeGreaterThan(x!.expiration);
    const judge = paid(mock, s.address).get(rows[0]!.to);
    expect(judge?.count).toBe(1);
    expect(mock.state.chain.transactions.has(x!.tx_id)).toBe(false);
    expect(mock.state.chain.transactions.has(y)).toBe(true);
  });
});
