import { TronWeb, utils as tronUtils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import {
  buildTrc20Transfer,
  buildTrxTransfer,
  decodeRawDataHex,
  hexToMemo,
  privateKeyToTronAddress,
  recoverTransactionSigner,
  signTransaction,
  verifySignedTransaction,
} from '../../src/protocol/tron-transaction.js';

const KEY = '0x' + '11'.repeat(32);
const OTHER_KEY = '22'.repeat(32);
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('TRON transactions without tronweb', () => {
  const from = privateKeyToTronAddress(KEY);
  const to = privateKeyToTronAddress(OTHER_KEY);

  it('derives the same address as tronweb', () => {
    expect(from).toBe(TronWeb.address.fromPrivateKey(KEY.slice(2)));
    expect(to).toBe(TronWeb.address.fromPrivateKey(OTHER_KEY));
  });

  it('builds a TRX transfer with a memo that decodes back and hashes to its txID', () => {
    const tx = buildTrxTransfer({ from, to, amountSun: 1_500_000n, memo: 'user-memo-42', now: 1_700_000_000_000 });
    const decoded = decodeRawDataHex(tx.raw_data_hex);
    expect(decoded).toMatchObject({
      txID: tx.txID,
      contractType: 'TransferContract',
      ownerAddress: from,
      toAddress: to,
      amountSun: 1_500_000n,
      expiration: 1_700_000_060_000,
      timestamp: 1_700_000_000_000,
    });
    expect(hexToMemo(decoded.dataHex!)).toBe('user-memo-42');
  });

  it('signs like tronweb and recovers the signer', async () => {
    const tx = buildTrxTransfer({ from, to, amountSun: 2_000_000n });
    const ours = signTransaction(tx, KEY);
    const theirs = await new TronWeb({ fullHost: 'http://127.0.0.1:9' }).trx.sign({ ...tx, raw_data: tx.raw_data } as never, KEY.slice(2), false, false);
    // tronweb checks txID against raw_data itself; same key + same digest => same deterministic signature
    expect(ours.signature[0]).toBe((theirs as { signature: string[] }).signature[0]!.toLowerCase());
    expect(recoverTransactionSigner(tx.txID, ours.signature[0]!)).toBe(from);
    const verified = verifySignedTransaction(ours);
    expect(verified.ok && verified.signer).toBe(from);
  });

  it('rejects a tampered body, a foreign signer and a wrong txID', () => {
    const tx = signTransaction(buildTrxTransfer({ from, to, amountSun: 5n }), KEY);
    const tampered = { ...tx, raw_data_hex: tx.raw_data_hex.replace(/05(?=[0-9a-f]{0,4}$)|05/, '06') };
    expect(verifySignedTransaction(tampered)).toMatchObject({ ok: false, reason: 'txid_mismatch' });
    const foreign = signTransaction(buildTrxTransfer({ from, to, amountSun: 5n }), OTHER_KEY);
    expect(verifySignedTransaction(foreign)).toMatchObject({ ok: false, reason: 'signer_not_owner' });
    expect(verifySignedTransaction({ ...tx, signature: ['00'.repeat(65)] })).toMatchObject({ ok: false });
    // The spec's form (txID, raw_data, signature): raw_data is encoded and must hash to the txID.
    expect(verifySignedTransaction({ ...tx, raw_data_hex: undefined })).toMatchObject({ ok: true, signer: from });
    const changed = {
      ...tx.raw_data,
      contract: [
        {
          ...(tx.raw_data.contract as object[])[0],
          parameter: {
            type_url: 'type.googleapis.com/protocol.TransferContract',
            value: { ...(tx.raw_data.contract as Array<{ parameter: { value: object } }>)[0]!.parameter.value, amount: 6 },
          },
        },
      ],
    };
    expect(verifySignedTransaction({ ...tx, raw_data_hex: undefined, raw_data: changed })).toMatchObject({ ok: false, reason: 'txid_mismatch' });
    expect(verifySignedTransaction({ ...tx, raw_data_hex: undefined, raw_data: undefined })).toMatchObject({ ok: false, reason: 'missing_raw_data' });
  });

  it('builds and decodes a TRC-20 transfer(to, amount)', () => {
    const tx = buildTrc20Transfer({ from, contract: USDT, to, amount: 12_345_678n });
    const decoded = decodeRawDataHex(tx.raw_data_hex);
    expect(decoded.contractType).toBe('TriggerSmartContract');
    expect(decoded.contractAddress).toBe(USDT);
    expect(decoded.trc20Transfer).toEqual({ to, amount: 12_345_678n });
    expect(decoded.feeLimit).toBe(30_000_000);
  });

  it('encodes raw_data exactly as tronweb does (same raw_data_hex, same txID)', () => {
    const check = (tx: { txID: string; raw_data_hex: string; raw_data: unknown }) => {
      const pb = tronUtils.transaction.txJsonToPb({ raw_data: tx.raw_data, visible: false } as never);
      expect(tronUtils.transaction.txPbToRawDataHex(pb).toLowerCase()).toBe(tx.raw_data_hex);
      expect(tronUtils.transaction.txPbToTxID(pb).replace(/^0x/, '')).toBe(tx.txID);
      expect(tronUtils.transaction.txCheck({ ...tx, visible: false } as never)).toBe(true);
    };
    check(buildTrxTransfer({ from, to, amountSun: 1_000_000n, memo: 'memo', now: 1_700_000_000_000 }));
    check(buildTrc20Transfer({ from, contract: USDT, to, amount: 10n ** 6n, now: 1_700_000_000_000 }));
  });
});
