/**
 * send_token and send_batch from a multi-signature account over MCP, against the mock: the
 * server's wallet key signs as a key of the account's permission 2 (`from`, `permission_id`).
 * With weight enough for the threshold it sends (the chain shows the transfer naming permission
 * 2); short of it, PERMISSION_DENIED names the permission and the weight missing before the user
 * is asked or anything is rented (the mock's order log stays empty).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { decodeRawDataHex, privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { twoOfThree } from '../helpers/multisig.js';
import { fundedWalletMaker } from '../helpers/wallets.js';
import { KEYS, accept, call, errorOf, ok, session as sessionOn } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 50, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
});
afterAll(() => mock.close());

const WALLET = privateKeyToTronAddress(KEYS.tron);
const wallet = fundedWalletMaker(() => mock, 0xb0);
/** Every order the mock holds, of any account (its order log). */
const orders = () => mock.state.orders.all().length;

describe('MCP send tools from a multi-signature account', () => {
  test('send_token: the wallet key (weight 2 of threshold 2) pays from the account under permission 2', async () => {
    const other = wallet();
    const { owner } = await twoOfThree(mock, wallet, {
      keys: [
        { address: WALLET, weight: 2 },
        { address: other.address, weight: 1 },
      ],
    });
    const to = wallet(0n, 1_000_000n).address;
    await sessionOn(
      mock,
      { allowSpend: true, limits: { maxWithdrawal: '100' } },
      async ({ client, asked }) => {
        const sent = ok<{ tx_id: string; from: string }>(
          await call(client, 'send_token', { token: 'USDT', to, amount: '3', from: owner.address, permission_id: 2 }, 30_000),
        );
        expect(sent.from).toBe(owner.address);
        expect(asked[0]).toMatch(new RegExp(`Send 3 USDT from ${owner.address}`));
        const t = mock.state.chain.transactions.get(sent.tx_id)!;
        expect(t.transfer).toMatchObject({ from: owner.address, to, amount: 3_000_000n });
        expect(decodeRawDataHex((t.tx as { raw_data_hex: string }).raw_data_hex).permissionId).toBe(2);
      },
      accept,
    );
  });

  test('send_token and send_batch: the wallet key weighs 1 of a 2-of-3: PERMISSION_DENIED before the user is asked or anything is rented', async () => {
    const { owner } = await twoOfThree(mock, wallet);
    const { owner: account2 } = await twoOfThree(mock, wallet, {
      keys: [
        { address: WALLET, weight: 1 },
        { address: wallet().address, weight: 1 },
        { address: wallet().address, weight: 1 },
      ],
    });
    const before = orders();
    await sessionOn(mock, { allowSpend: true, limits: { maxWithdrawal: '100' } }, async ({ client, asked }) => {
      const notKey = errorOf(
        await call(client, 'send_token', { token: 'USDT', to: wallet(0n, 1_000_000n).address, amount: '1', from: owner.address, permission_id: 2 }),
      );
      expect(notKey.code).toBe('PERMISSION_DENIED');
      expect(notKey.message).toMatch(/is not a key of permission 2 \("pay"\)/);
      const short = errorOf(
        await call(client, 'send_token', { token: 'USDT', to: wallet(0n, 1_000_000n).address, amount: '1', from: account2.address, permission_id: 2 }),
      );
      expect(short.code).toBe('PERMISSION_DENIED');
      expect(short.message).toMatch(/permission 2 \("pay"\) of T\w+: 1 missing/);
      expect(short.details).toMatchObject({ permission_id: 2, missing_weight: 1 });
      const batch = errorOf(
        await call(client, 'send_batch', { payouts: [{ to: wallet(0n, 1_000_000n).address, amount: '1' }], from: account2.address, permission_id: 2 }),
      );
      expect(batch.code).toBe('PERMISSION_DENIED');
      expect(asked).toEqual([]);
    });
    expect(orders()).toBe(before);
    expect(
      [...mock.state.chain.transactions.values()]
        .filter((t) => t.owner === owner.address || t.owner === account2.address)
        .every((t) => t.contractType !== 'TriggerSmartContract'),
    ).toBe(true);
  });
});
