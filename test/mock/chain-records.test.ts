/**
 * A fill's delegation as the chain keeps it (DelegationRecord, src/mock/chain/records.ts): its
 * JSON body is built when first read, so it must read, save and restore exactly as the object
 * literal it replaced: the same body on `gettransactionbyid`, the same keys in the same order in
 * a state file, and a restored chain answering the same.
 */
import { describe, expect, it } from 'vitest';
import { decodeState, encodeState } from '../../src/mock/state/persist.js';
import { createManualClock, createMockState } from '../../src/mock/index.js';
import { DelegationRecord } from '../../src/mock/chain/records.js';

const T0 = Date.UTC(2026, 0, 1);
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

describe('a fill delegation record', () => {
  it('reads, saves and restores as the literal record did', async () => {
    const state = createMockState({ seed: 3, clock: createManualClock(T0) });
    const account = state.getAccount(state.demo.account_id)!;
    const order = state.orders.create(account, { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3_600, target_address: TARGET });
    await state.advance(1_000);
    const fill = state.orders.find(order.id)!.fills[0]!;
    expect(fill.status).toBe('CONFIRMED');
    const record = state.chain.transactions.get(fill.tx_id)!;
    expect(record).toBeInstanceOf(DelegationRecord);

    const now = record.timestamp;
    const body = {
      txID: fill.tx_id,
      raw_data: {
        contract: [
          {
            parameter: {
              value: {
                owner_address: expect.stringMatching(/^41[0-9a-f]{40}$/),
                receiver_address: '415a523b449890854c8fc460ab602df9f31fe4293f',
                resource: 'ENERGY',
                balance: 65_000,
                lock: true,
                lock_period: 1_200,
              },
              type_url: 'type.googleapis.com/protocol.DelegateResourceContract',
            },
            type: 'DelegateResourceContract',
          },
        ],
        timestamp: now,
        expiration: now + 60_000,
      },
      signature: [],
    };
    expect(record.tx).toEqual(body);
    expect(record.tx).toBe(record.tx); // built once
    expect(state.chain.transactionJson(fill.tx_id)).toEqual({ ...body, ret: [{ contractRet: 'SUCCESS' }] });

    // The state file writes it key for key as the literal was written.
    const saved = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    expect(Object.keys(saved)).toEqual(['txid', 'tx', 'result', 'owner', 'contractType', 'energyUsed', 'netUsed', 'feeSun', 'block', 'timestamp']);
    expect(saved).toEqual({
      txid: fill.tx_id,
      tx: body,
      result: 'SUCCESS',
      owner: record.owner,
      contractType: 'DelegateResourceContract',
      energyUsed: 0,
      netUsed: 280,
      feeSun: 0,
      block: state.chain.height(now),
      timestamp: now,
    });
    expect(Object.keys((saved.tx as { raw_data: object }).raw_data)).toEqual(['contract', 'timestamp', 'expiration']);

    // A restored state holds it as plain data and answers the same; saved again, the same text.
    const text = encodeState(state.snapshot());
    const restored = createMockState({ restore: decodeState(text), clock: createManualClock(T0 + 1_000) });
    expect(restored.chain.transactionJson(fill.tx_id)).toEqual(state.chain.transactionJson(fill.tx_id));
    expect(restored.chain.transactionInfo(fill.tx_id)).toEqual(state.chain.transactionInfo(fill.tx_id));
    const chainOf = (t: string) => JSON.stringify((JSON.parse(t) as { chain: unknown }).chain);
    expect(chainOf(encodeState(restored.snapshot()))).toBe(chainOf(text));
    state.dispose();
    restored.dispose();
  });
});
