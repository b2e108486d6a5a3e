/**
 * The one signer interface (`trx-rent/signers`): each adapter's signatures checked by tronweb's
 * own code (`ecRecover`, `signTransaction`, `txCheck`), the normaliser that keeps the old inputs
 * working (`{ privateKey }`, a 64-hex key, a TronWeb instance), and the transaction helpers:
 * `signTransactionWith` (signs the txID, appends, refuses what it must) and `withPermissionId`
 * (the same bytes tronweb builds for a `Permission_id`).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { TronWeb, utils as tronwebUtils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import {
  SignatureMismatchError,
  fromPrivateKey,
  fromSignFunction,
  fromTronWeb,
  isSigner,
  permissionIdOf,
  signTransactionWith,
  toSigner,
  withPermissionId,
} from '../../src/protocol/signers/index.js';
import { buildTrc20Transfer, buildTrxTransfer, privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const OTHER = '1f'.repeat(32);
const ADDRESS = privateKeyToTronAddress(KEY);
const TO = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const N = secp256k1.Point.Fn.ORDER;
const digestOf = (i: number) => hexToBytes(bytesToHex(new TextEncoder().encode(`digest ${i}`.padEnd(32, '.'))));
const recovered = (digest: Uint8Array, sig: Uint8Array | string) =>
  tronwebUtils.crypto.ecRecover(bytesToHex(digest), typeof sig === 'string' ? sig : bytesToHex(sig)).toLowerCase();
const transfer = () => buildTrc20Transfer({ from: ADDRESS, contract: USDT, to: TO, amount: 5_000_000n, now: 1_700_000_000_000 });

describe('adapters', () => {
  it('fromPrivateKey: the address of the key, low-s signatures tronweb recovers, and no key in its JSON', async () => {
    const signer = fromPrivateKey(`0x${KEY}`, { permissionId: 2 });
    expect(signer.address).toBe(ADDRESS);
    expect(isSigner(signer)).toBe(true);
    for (let i = 0; i < 16; i++) {
      const sig = await signer.signDigest(digestOf(i));
      expect(sig.length).toBe(65);
      expect([27, 28]).toContain(sig[64]);
      expect(secp256k1.verify(sig.subarray(0, 64), digestOf(i), secp256k1.getPublicKey(hexToBytes(KEY)), { prehash: false, lowS: true })).toBe(true);
      expect(recovered(digestOf(i), sig)).toBe(tronAddressToHex(ADDRESS));
    }
    expect(JSON.stringify(signer)).not.toContain(KEY);
    expect(JSON.stringify(signer)).toBe(JSON.stringify({ signer: 'privateKey', address: ADDRESS, permissionId: 2 }));
    expect(() => fromPrivateKey('zz')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => fromPrivateKey('0'.repeat(64))).toThrow(/secp256k1 private key/);
    expect(() => fromPrivateKey(KEY, { permissionId: 1 })).toThrow(/permissionId must be 0 \(owner\) or 2\.\.9/);
  });

  it('fromSignFunction: a high s made low (v flipped), hex or bytes, 64 or 65 bytes; a signature by another key refused', async () => {
    const digest = digestOf(99);
    const high = (d: Uint8Array, key: string) => {
      const sig = secp256k1.Signature.fromBytes(secp256k1.sign(d, hexToBytes(key), { prehash: false, format: 'recovered' }), 'recovered');
      // The same signature with s in the upper half and the recovery bit of that form: what an HSM may return.
      const s = N - sig.s;
      return `${sig.r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${(27 + (sig.recovery! ^ 1)).toString(16)}`;
    };
    const forms = [
      (d: Uint8Array) => `0x${high(d, KEY)}`,
      (d: Uint8Array) => hexToBytes(high(d, KEY).slice(0, 128)),
      (d: Uint8Array) => {
        const s = secp256k1.sign(d, hexToBytes(KEY), { prehash: false, format: 'recovered' });
        return Uint8Array.from([...s.subarray(1), s[0]!]);
      },
    ];
    for (const form of forms) {
      const signer = fromSignFunction({ address: ADDRESS, sign: form });
      const sig = await signer.signDigest(digest);
      const s = BigInt(`0x${bytesToHex(sig.subarray(32, 64))}`);
      expect(s <= N >> 1n).toBe(true);
      expect(recovered(digest, sig)).toBe(tronAddressToHex(ADDRESS));
    }
    const wrong = fromSignFunction({ address: ADDRESS, sign: (d) => high(d, OTHER) });
    await expect(wrong.signDigest(digest)).rejects.toBeInstanceOf(SignatureMismatchError);
    const short = fromSignFunction({ address: ADDRESS, sign: () => new Uint8Array(10) });
    await expect(short.signDigest(digest)).rejects.toThrow(/65 bytes/);
    expect(() => fromSignFunction({ address: 'nope', sign: () => '' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('fromTronWeb: an instance with a key signs digests here; a wallet without one signs whole transactions through trx.sign', async () => {
    const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9', privateKey: KEY });
    const withKey = fromTronWeb(tronWeb as never);
    expect(withKey.address).toBe(ADDRESS);
    expect(withKey.signTransaction).toBeUndefined();
    expect(recovered(digestOf(1), await withKey.signDigest(digestOf(1)))).toBe(tronAddressToHex(ADDRESS));
    // A browser wallet: no key in the page, trx.sign does the work.
    const calls: unknown[] = [];
    const wallet = {
      defaultAddress: { base58: ADDRESS },
      defaultPrivateKey: false,
      trx: {
        sign: async (tx: never) => {
          calls.push(tx);
          return tronWeb.trx.sign(tx);
        },
      },
    };
    const browser = fromTronWeb(wallet as never);
    await expect(browser.signDigest(digestOf(1))).rejects.toThrow(/signs whole transactions only/);
    const signed = await signTransactionWith(browser, transfer());
    expect(calls).toHaveLength(1);
    expect(signed.signature).toEqual(((await tronWeb.trx.sign(transfer() as never)) as { signature: string[] }).signature.map((sig) => sig.toLowerCase()));
  });
});

describe('toSigner and signTransactionWith', () => {
  it('toSigner keeps the old inputs working: { privateKey }, a 64-hex key, a TronWeb instance, a Signer; anything else is a VALIDATION_ERROR', () => {
    expect(toSigner({ privateKey: KEY }).address).toBe(ADDRESS);
    expect(toSigner({ privateKey: `0x${KEY}`, permissionId: 3 }).permissionId).toBe(3);
    expect(toSigner(KEY).address).toBe(ADDRESS);
    expect(toSigner(new TronWeb({ fullHost: 'http://127.0.0.1:9', privateKey: KEY }) as never).address).toBe(ADDRESS);
    const own = fromPrivateKey(KEY);
    expect(toSigner(own)).toBe(own);
    expect(() => toSigner({ privateKey: 'bad' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: { field: 'signer.privateKey' } }));
    expect(() => toSigner({ privateKey: KEY, permissionId: 12 })).toThrow(expect.objectContaining({ details: { field: 'signer.permissionId' } }));
    expect(() => toSigner(undefined)).toThrow(expect.objectContaining({ details: { field: 'signer' } }));
    expect(() => toSigner({ address: 'x', signDigest: async () => new Uint8Array() } as never)).toThrow(/not a TRON address/);
    try {
      toSigner({ privateKey: `${KEY.slice(0, 60)}zzzz` });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(KEY.slice(0, 60));
    }
  });

  it('signs the txID exactly as tronweb does (same bytes, same signature), appends, and keeps the txID', async () => {
    const unsigned = transfer();
    const signed = await signTransactionWith({ privateKey: KEY }, unsigned);
    expect(signed.txID).toBe(unsigned.txID);
    const byTronWeb = tronwebUtils.crypto.signTransaction(KEY, { ...unsigned });
    // tronweb writes v in upper-case hex ("1B"); the bytes are the same.
    expect(signed.signature).toEqual(byTronWeb.signature!.map((sig: string) => sig.toLowerCase()));
    expect(tronwebUtils.transaction.txCheck(signed as never)).toBe(true);
  });

  it('refuses a txID that is not the raw data, a permission mismatch, and a key signing twice', async () => {
    const unsigned = transfer();
    await expect(signTransactionWith(KEY, { ...unsigned, txID: 'ab'.repeat(32) })).rejects.toThrow(/not sha256 of its raw data/);
    await expect(signTransactionWith(fromPrivateKey(KEY, { permissionId: 2 }), unsigned)).rejects.toThrow(/names permission 0 .* signs for permission 2/);
    const once = await signTransactionWith(KEY, unsigned);
    await expect(signTransactionWith(KEY, once)).rejects.toThrow(/already signed/);
  });

  it('withPermissionId: the raw data tronweb encodes for a Permission_id, a new txID, several keys sign it, refused once signed', async () => {
    const unsigned = buildTrxTransfer({ from: ADDRESS, to: TO, amountSun: 1_000_000n, now: 1_700_000_000_000 });
    const named = withPermissionId(unsigned, 2);
    expect(named.txID).not.toBe(unsigned.txID);
    expect((named.raw_data.contract as Array<{ Permission_id?: number }>)[0]!.Permission_id).toBe(2);
    const pb = tronwebUtils.transaction.txJsonToPb(named as never);
    expect(tronwebUtils.transaction.txPbToRawDataHex(pb).toLowerCase()).toBe(named.raw_data_hex);
    expect(tronwebUtils.transaction.txPbToTxID(pb).replace(/^0x/, '')).toBe(named.txID);
    expect(permissionIdOf(named)).toBe(2);
    expect(permissionIdOf(withPermissionId(named, 0))).toBe(0);
    expect(withPermissionId(named, 0).txID).toBe(unsigned.txID);
    const one = await signTransactionWith(fromPrivateKey(KEY, { permissionId: 2 }), named);
    const two = await signTransactionWith(fromPrivateKey(OTHER, { permissionId: 2 }), one);
    expect(two.txID).toBe(named.txID);
    expect(two.signature.map((s) => recovered(hexToBytes(named.txID), s))).toEqual([
      tronAddressToHex(ADDRESS),
      tronAddressToHex(privateKeyToTronAddress(OTHER)),
    ]);
    expect(() => withPermissionId(two, 3)).toThrow(/before the first signature/);
  });
});
