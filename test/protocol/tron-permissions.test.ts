/**
 * Account permissions on the wire (src/protocol/tron-permissions.ts): the operations bitmask as
 * java-tron reads it, the protobuf and JSON of a Permission round-tripped, and `permissionCheck`
 * over the account JSON the mock's node (java-tron's shapes) answers: the weight still missing,
 * outsiders, an operation the permission does not allow, a permission that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { signTransactionWith } from '../../src/protocol/signers/index.js';
import {
  allowsOperation,
  decodePermissionUpdate,
  encodePermissionUpdate,
  operationsHex,
  permissionCheck,
  permissionUpdateFromJson,
  permissionUpdateJson,
} from '../../src/protocol/tron-permissions.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';

const key = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const walletOf = (n: number) => ({ privateKey: key(n), address: privateKeyToTronAddress(key(n)) });
const [A, B, C, D] = [walletOf(0x71), walletOf(0x72), walletOf(0x73), walletOf(0x74)] as const;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 48, rateLimits: false });
});
afterAll(async () => {
  await mock.close();
});
const node = async (method: string, body: unknown) =>
  (await (await fetch(`${mock.url}/wallet/${method}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;

describe('the operations bitmask and the codec', () => {
  it('operations: type i is bit i % 8 of byte i / 8 (the examples of the reference notes)', () => {
    expect(operationsHex(['DelegateResourceContract', 'UnDelegateResourceContract'])).toBe(`0000000000000006${'0'.repeat(48)}`);
    expect(operationsHex([1, 31, 54, 55, 56, 57, 58, 59])).toBe(`020000800000c00f${'0'.repeat(48)}`);
    expect(allowsOperation(operationsHex([31]), 31)).toBe(true);
    expect(allowsOperation(operationsHex([31]), 1)).toBe(false);
    expect(allowsOperation('00', 1)).toBe(false);
    expect(() => operationsHex(['NoSuchContract'])).toThrow(/unknown contract type/);
  });

  it('an update round-trips through protobuf and JSON (hex and base58 addresses)', () => {
    const json = {
      owner_address: tronAddressToHex(A.address),
      owner: { permission_name: 'owner', threshold: 1, keys: [{ address: tronAddressToHex(A.address), weight: 1 }] },
      actives: [
        {
          type: 'Active',
          id: 2,
          permission_name: 'pay',
          threshold: 2,
          operations: operationsHex([1, 31]),
          keys: [B, C].map((k) => ({ address: k.address, weight: 1 })),
        },
      ],
    };
    const update = permissionUpdateFromJson(json);
    expect(decodePermissionUpdate(Uint8Array.from(encodePermissionUpdate(update)))).toEqual(update);
    expect(permissionUpdateJson(update)).toEqual({
      ...json,
      actives: [{ ...json.actives[0], keys: [B, C].map((k) => ({ address: tronAddressToHex(k.address), weight: 1 })) }],
    });
    expect(permissionUpdateJson(update, true).owner_address).toBe(A.address);
  });
});

describe('permissionCheck over the account the node answers', () => {
  it('a 2-of-3 permission: the missing weight, outsiders, operations, ids', async () => {
    const chain = mock.state.chain;
    chain.fundTrx(A.address, 200_000_000n);
    const built = await node('accountpermissionupdate', {
      owner_address: A.address,
      owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: A.address, weight: 1 }] },
      actives: [
        {
          type: 2,
          permission_name: 'pay',
          threshold: 3,
          operations: operationsHex(['TriggerSmartContract']),
          keys: [
            { address: B.address, weight: 2 },
            { address: C.address, weight: 1 },
            { address: D.address, weight: 1 },
          ],
        },
      ],
      visible: true,
    });
    expect((await node('broadcasttransaction', await signTransactionWith(A.privateKey, built as never))).result).toBe(true);
    const account = await node('getaccount', { address: A.address });

    expect(permissionCheck(account, 2, [B.address, C.address], 'TriggerSmartContract')).toMatchObject({
      ok: true,
      weight: 3,
      threshold: 3,
      missing: 0,
      outsiders: [],
      allowed: true,
    });
    const short = permissionCheck(account, 2, [C.address, D.address], 31);
    expect(short).toMatchObject({ ok: false, weight: 2, missing: 1, allowed: true });
    expect(short.problem).toBe(`the signers' weight 2 is short of the threshold 3 of permission 2 ("pay") of ${A.address}: 1 missing`);
    // The same key twice counts once, as java-tron refuses a key signing twice.
    expect(permissionCheck(account, 2, [C.address, C.address, D.address], 31).missing).toBe(1);
    expect(permissionCheck(account, 2, [A.address, B.address], 31)).toMatchObject({ ok: false, outsiders: [A.address], weight: 2, missing: 1 });
    expect(permissionCheck(account, 2, [B.address, C.address], 'TransferContract')).toMatchObject({
      ok: false,
      allowed: false,
      problem: `permission 2 ("pay") of ${A.address} does not allow contract type 1`,
    });
    expect(permissionCheck(account, 0, [A.address], 'TransferContract')).toMatchObject({ ok: true, weight: 1, threshold: 1 });
    expect(permissionCheck(account, 3, [B.address], 31)).toMatchObject({ ok: false, problem: `${A.address} has no permission 3` });
    expect(permissionCheck({}, 0, [B.address], 31)).toMatchObject({ ok: false, problem: 'the account does not exist on chain' });
  });
});
