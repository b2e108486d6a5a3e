/**
 * A multi-signature account on the mock's chain, set as on TRON: the owner sends an
 * AccountPermissionUpdate (through the mock's node, signed by its key) making active permission 2
 * ("pay") 2-of-3 over three fresh keys, for TRX and TRC-20 transfers unless `operations` says
 * otherwise (`keys` replaces the three keys and their weights). The account holds `usdt` (atomic) and 500 TRX (the update burns 100).
 */
import { expect } from 'vitest';
import type { MockServer } from '../../src/mock/index.js';
import { signTransactionWith } from '../../src/protocol/signers/index.js';
import { operationsHex } from '../../src/protocol/tron-permissions.js';
import { tronAddressToHex } from '../../src/utils/address.js';

type Wallet = { privateKey: string; address: string };

/** The account (`owner`) and the permission's keys b, c, d (weight 1 each, threshold 2). */
export async function twoOfThree(
  mock: MockServer,
  make: (usdt?: bigint, trxSun?: bigint) => Wallet,
  options: { usdt?: bigint; operations?: string; keys?: Array<{ address: string; weight: number }> } = {},
): Promise<{ owner: Wallet; b: Wallet; c: Wallet; d: Wallet }> {
  const node = async (method: string, body: unknown) =>
    (await (await fetch(`${mock.url}/wallet/${method}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;
  const owner = make(options.usdt ?? 1_000_000_000n, 500_000_000n);
  const [b, c, d] = [make(), make(), make()];
  const update = await node('accountpermissionupdate', {
    owner_address: tronAddressToHex(owner.address),
    owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: tronAddressToHex(owner.address), weight: 1 }] },
    actives: [
      {
        type: 2,
        permission_name: 'pay',
        threshold: 2,
        operations: options.operations ?? operationsHex(['TransferContract', 'TriggerSmartContract']),
        keys: (options.keys ?? [b, c, d].map((k) => ({ address: k.address, weight: 1 }))).map((k) => ({
          address: tronAddressToHex(k.address),
          weight: k.weight,
        })),
      },
    ],
  });
  expect((await node('broadcasttransaction', await signTransactionWith(owner.privateKey, update as never))).result).toBe(true);
  return { owner, b, c, d };
}
