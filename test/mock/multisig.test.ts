/**
 * Multi-signature on the simulated node, driven by tronweb 6.5.1's own flows as against java-tron:
 * `transactionBuilder.updateAccountPermissions` sets a 2-of-3 active permission (100 TRX burnt),
 * `trx.multiSign` asks the node's `getsignweight` and signs, `trx.getSignWeight` and
 * `trx.getApprovedList` answer in java-tron's fields; a transaction signed by two of the three
 * lands (paying the 1 TRX multi-signature fee), one signed by one is refused with java-tron's
 * text, and so are a key outside the permission, a key twice, an operation the permission does
 * not allow and a permission that does not exist. The chain (`mock.state.chain`) judges.
 */
import { TronWeb, utils as tronwebUtils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { SOLIDIFIED_LAG_BLOCKS } from '../../src/mock/chain/blocks.js';
import { CHAIN_PARAMETERS } from '../../src/mock/chain/fees.js';
import { operationsHex } from '../../src/protocol/tron-permissions.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { fundedWalletMaker } from '../helpers/wallets.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 46, rateLimits: false });
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TO = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const wallet = fundedWalletMaker(() => mock, 0xc0);
const hex = (address: string) => tronAddressToHex(address);
const text = (message: unknown) => Buffer.from(String(message), 'hex').toString();
const trx = () => mock.state.chain;
/** tronweb's `trx.getAccount` reads the solidity node: let what just happened be solidified first. */
const solidified = () => mock.state.advance((SOLIDIFIED_LAG_BLOCKS + 1) * 3_000);

/** An account whose active permission 2 ("pay") is 2-of-3 over keys b, c, d, for TRX and TRC-20 transfers; set with tronweb. */
async function twoOfThree() {
  const owner = wallet(20_000_000n, 300_000_000n);
  const [b, c, d] = [wallet(), wallet(), wallet()];
  const tronWeb = new TronWeb({ fullHost: mock.url, privateKey: owner.privateKey });
  const ownerPermission = { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: owner.address, weight: 1 }] };
  const active = {
    type: 2,
    permission_name: 'pay',
    threshold: 2,
    operations: operationsHex(['TransferContract', 'TriggerSmartContract']),
    keys: [b, c, d].map((k) => ({ address: k.address, weight: 1 })),
  };
  const update = await tronWeb.transactionBuilder.updateAccountPermissions(owner.address, ownerPermission as never, null as never, [active] as never);
  const before = trx().trxBalance(owner.address);
  const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(update));
  expect(sent.result).toBe(true);
  const fee = trx().transactions.get(update.txID)!.feeSun;
  expect(fee).toBeGreaterThanOrEqual(CHAIN_PARAMETERS.getUpdateAccountPermissionFee);
  expect(before - trx().trxBalance(owner.address)).toBe(BigInt(fee));
  return { owner, b, c, d, tronWeb };
}

describe('multi-signature with tronweb against the simulated node', () => {
  it('updateAccountPermissions sets a 2-of-3 active permission: getAccount shows it as java-tron prints it (ids reassigned, owner without type)', async () => {
    const { owner, b, c, d, tronWeb } = await twoOfThree();
    const fresh = wallet(0n, 1_000_000n);
    await solidified();
    const account = await tronWeb.trx.getAccount(owner.address);
    expect(account.owner_permission).toEqual({ permission_name: 'owner', threshold: 1, keys: [{ address: hex(owner.address), weight: 1 }] });
    expect(account.active_permission).toEqual([
      {
        type: 'Active',
        id: 2,
        permission_name: 'pay',
        threshold: 2,
        operations: operationsHex([1, 31]),
        keys: [b, c, d].map((k) => ({ address: hex(k.address), weight: 1 })),
      },
    ]);
    // A fresh account has java-tron's defaults.
    expect((await tronWeb.trx.getAccount(fresh.address)).active_permission).toEqual([
      {
        type: 'Active',
        id: 2,
        permission_name: 'active',
        threshold: 1,
        operations: `7fff1fc0033efb0f${'0'.repeat(48)}`,
        keys: [{ address: hex(fresh.address), weight: 1 }],
      },
    ]);
  });

  it('multiSign by two of three: getSignWeight and getApprovedList answer as java-tron; the transfer lands and pays the multi-signature fee', async () => {
    const { owner, b, c, tronWeb } = await twoOfThree();
    // Built without a permission id: multiSign sets Permission_id 2 and takes the node's transaction from getsignweight.
    const unsigned = await tronWeb.transactionBuilder.sendTrx(TO, 3_000_000, owner.address);
    const once = await tronWeb.trx.multiSign(unsigned, b.privateKey, 2);
    expect(once.raw_data.contract[0]!.Permission_id).toBe(2);
    expect(once.txID).not.toBe(unsigned.txID);
    const weightOfOne = await tronWeb.trx.getSignWeight(once);
    expect(weightOfOne).toMatchObject({
      permission: { type: 'Active', id: 2, permission_name: 'pay', threshold: 2 },
      approved_list: [hex(b.address)],
      current_weight: 1,
      result: { code: 'NOT_ENOUGH_PERMISSION' },
      transaction: { result: { result: true }, txid: once.txID, transaction: { txID: once.txID, raw_data_hex: once.raw_data_hex, signature: once.signature } },
    });
    const twice = await tronWeb.trx.multiSign(once, c.privateKey, 2);
    expect(twice.txID).toBe(once.txID);
    expect(twice.signature).toHaveLength(2);
    const weightOfTwo = await tronWeb.trx.getSignWeight(twice);
    expect(weightOfTwo.current_weight).toBe(2);
    expect(weightOfTwo.approved_list).toEqual([hex(b.address), hex(c.address)]);
    expect(weightOfTwo.result).toEqual({}); // ENOUGH_PERMISSION is the enum's default: java-tron leaves it out
    expect(await tronWeb.trx.getApprovedList(twice)).toMatchObject({ approved_list: [hex(b.address), hex(c.address)], result: {} });

    const before = trx().trxBalance(owner.address);
    const sent = await tronWeb.trx.sendRawTransaction(twice);
    expect(sent).toMatchObject({ result: true, txid: twice.txID });
    const landed = trx().transactions.get(twice.txID)!;
    expect(landed.trxTransfer?.amountSun).toBe(3_000_000n);
    expect(landed.feeSun).toBeGreaterThanOrEqual(CHAIN_PARAMETERS.getMultiSignFee);
    expect(before - trx().trxBalance(owner.address)).toBe(3_000_000n + BigInt(landed.feeSun));
  });

  it('a transaction signed by one of the three is refused with java-tron\'s text ("sig error"), and nothing moves', async () => {
    const { owner, b, tronWeb } = await twoOfThree();
    const one = await tronWeb.trx.multiSign(await tronWeb.transactionBuilder.sendTrx(TO, 2_000_000, owner.address), b.privateKey, 2);
    const before = trx().trxBalance(owner.address);
    const refused = await tronWeb.trx.sendRawTransaction(one);
    expect(refused).toMatchObject({ code: 'SIGERROR', txid: one.txID });
    expect(text(refused.message)).toBe('Validate signature error: sig error');
    expect(trx().trxBalance(owner.address)).toBe(before);
    expect(trx().transactions.has(one.txID)).toBe(false);
  });

  it('a TRC-20 transfer (TriggerSmartContract, type 31) from the 2-of-3 account lands', async () => {
    const { owner, b, d, tronWeb } = await twoOfThree();
    const built = await tronWeb.transactionBuilder.triggerSmartContract(
      USDT,
      'transfer(address,uint256)',
      { feeLimit: 100_000_000, permissionId: 2 },
      [
        { type: 'address', value: TO },
        { type: 'uint256', value: 5_000_000 },
      ],
      owner.address,
    );
    const signed = await tronWeb.trx.multiSign(await tronWeb.trx.multiSign(built.transaction, b.privateKey, 2), d.privateKey, 2);
    expect((await tronWeb.trx.sendRawTransaction(signed)).result).toBe(true);
    expect(trx().tokenBalance(owner.address, USDT)).toBe(15_000_000n);
  });

  it("refusals in java-tron's words: a key outside the permission, a key twice, an operation not allowed, a permission that does not exist", async () => {
    const { owner, b, c, tronWeb } = await twoOfThree();
    const named = await tronWeb.transactionBuilder.sendTrx(TO, 1_000_000, owner.address, { permissionId: 2 });
    // tronweb asks getsignweight first and refuses locally, as against java-tron.
    await expect(tronWeb.trx.multiSign(await tronWeb.transactionBuilder.sendTrx(TO, 1_000_000, owner.address), owner.privateKey, 2)).rejects.toThrow(
      `Address ${owner.address} has no permission to sign`,
    );
    const outsider = tronwebUtils.crypto.signTransaction(owner.privateKey, { ...named, signature: [] });
    const notContained = await tronWeb.trx.sendRawTransaction(outsider);
    expect(text(notContained.message)).toBe(
      `Validate signature error: ${outsider.signature![0]!.toLowerCase()} is signed by ${owner.address} but it is not contained of permission.`,
    );
    const bSig = tronwebUtils.crypto.signTransaction(b.privateKey, { ...named, signature: [] }).signature![0]!;
    const doubled = await tronWeb.trx.sendRawTransaction({ ...named, signature: [bSig, bSig] } as never);
    expect(text(doubled.message)).toBe(`Validate signature error: ${b.address} has signed twice!`);
    // getsignweight reports the same problems with java-tron's codes.
    expect((await tronWeb.trx.getSignWeight({ ...named, signature: [bSig, bSig] } as never)).result).toEqual({
      code: 'PERMISSION_ERROR',
      message: `${b.address} has signed twice!`,
    });

    // Permission 2 allows transfers only: an AccountPermissionUpdate under it is denied.
    const update = await tronWeb.transactionBuilder.updateAccountPermissions(
      owner.address,
      { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: b.address, weight: 1 }] } as never,
      null as never,
      [{ type: 2, permission_name: 'x', threshold: 1, operations: operationsHex([1]), keys: [{ address: c.address, weight: 1 }] }] as never,
      { permissionId: 2 } as never,
    );
    const denied = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.multiSign(await tronWeb.trx.multiSign(update, b.privateKey, 2), c.privateKey, 2));
    expect(text(denied.message)).toBe('Validate signature error: Permission denied');
    expect((await tronWeb.trx.getSignWeight(update)).result).toEqual({ code: 'PERMISSION_ERROR', message: 'Permission denied!' });

    const three = await tronWeb.transactionBuilder.sendTrx(TO, 1_000_000, owner.address, { permissionId: 3 });
    const missing = await tronWeb.trx.sendRawTransaction(tronwebUtils.crypto.signTransaction(b.privateKey, three));
    expect(text(missing.message)).toBe("Validate signature error: permission isn't exit");
    expect((await tronWeb.trx.getSignWeight(three)).result).toEqual({ code: 'PERMISSION_ERROR', message: 'Permission for this, does not exist!' });
  });

  it('the node validates an update as AccountPermissionUpdateActuator does; the owner key still signs alone under permission 0', async () => {
    const { owner, b, tronWeb } = await twoOfThree();
    const tooHigh = await tronWeb.transactionBuilder.updateAccountPermissions(
      owner.address,
      { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: owner.address, weight: 1 }] } as never,
      null as never,
      [{ type: 2, permission_name: 'pay', threshold: 3, operations: operationsHex([1]), keys: [{ address: b.address, weight: 1 }] }] as never,
    );
    const refused = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(tooHigh));
    expect(refused.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(text(refused.message)).toBe("Contract validate error : sum of all key's weight should not be less than threshold in permission Active");
    // /wallet/accountpermissionupdate builds the same contract, validated first.
    const built = await (
      await fetch(`${mock.url}/wallet/accountpermissionupdate`, { method: 'POST', body: JSON.stringify(tooHigh.raw_data.contract[0]!.parameter.value) })
    ).json();
    expect(built).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : sum of all key's weight should not be less than threshold in permission Active",
    });
    const alone = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(await tronWeb.transactionBuilder.sendTrx(TO, 1_000_000, owner.address)));
    expect(alone.result).toBe(true);
  });

  it('/wallet/accountpermissionupdate builds the transaction tronweb builds (same raw_data_hex for the same header)', async () => {
    const owner = wallet(0n, 150_000_000n);
    const [b, c] = [wallet(), wallet()];
    const body = {
      owner_address: hex(owner.address),
      owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: hex(owner.address), weight: 1 }] },
      actives: [
        {
          type: 2,
          permission_name: 'two',
          threshold: 2,
          operations: operationsHex([1]),
          keys: [
            { address: hex(b.address), weight: 1 },
            { address: hex(c.address), weight: 1 },
          ],
        },
      ],
      Permission_id: 0,
    };
    const built = (await (await fetch(`${mock.url}/wallet/accountpermissionupdate`, { method: 'POST', body: JSON.stringify(body) })).json()) as {
      txID: string;
      raw_data: Record<string, unknown>;
      raw_data_hex: string;
      visible: boolean;
    };
    expect(built.visible).toBe(false);
    // tronweb's own encoder, over the node's JSON, gives the node's bytes and txID.
    expect(tronwebUtils.transaction.txCheck(built as never)).toBe(true);
    const tronWeb = new TronWeb({ fullHost: mock.url, privateKey: owner.privateKey });
    expect((await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(built as never))).result).toBe(true);
    await solidified();
    expect((await tronWeb.trx.getAccount(owner.address)).active_permission![0]!.permission_name).toBe('two');
  });
});
