/**
 * Signing a row's transfer: a private key (secp256k1 in this process; the key never leaves it)
 * or a TronWeb instance, and a check that what was signed is exactly the transfer built.
 * @module
 */
import { TrxRentError, ValidationError } from '../../errors/index.js';
import type { UnsignedTransaction } from '../../protocol/tron-transaction.js';
import type { SendTronWeb, TransferSigner } from '../../tron/engine.js';
import { isTronAddress } from '../../utils/address.js';
import type { TransferRecord } from './identity-types.js';

/** Who signs the rows. */
export interface RowSigner {
  from: string;
  /** Sign `unsigned` and check it is the transfer of `to`/`amount` from the sender. */
  sign(unsigned: UnsignedTransaction, to: string, amount: bigint): Promise<TransferRecord['signed']>;
}

/** The signer of a batch (loads the signing code). */
export async function rowSigner(signer: TransferSigner): Promise<RowSigner> {
  const tx = await import('../../protocol/tron-transaction.js');
  let from: string;
  let sign: (u: UnsignedTransaction) => Promise<unknown>;
  if (signer && typeof signer === 'object' && 'trx' in signer) {
    const web = signer as SendTronWeb;
    from = web.defaultAddress?.base58 || '';
    if (!isTronAddress(from)) throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'signer: the TronWeb instance has no default address', details: { field: 'signer' } });
    sign = (u) => web.trx.sign(u as never);
  } else {
    const key = String((signer as { privateKey?: unknown } | undefined)?.privateKey ?? '').replace(/^0x/i, '');
    try {
      from = tx.privateKeyToTronAddress(key);
    } catch {
      throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'signer.privateKey: must be 64 hex characters (with or without 0x), or pass a TronWeb instance', details: { field: 'signer.privateKey' } });
    }
    sign = async (u) => tx.signTransaction(u, key);
  }
  return {
    from,
    async sign(unsigned, to, amount) {
      const signed = (await sign(unsigned)) as UnsignedTransaction & { signature: string[] };
      // Trust only raw_data_hex: it must be the transfer built here, signed by the sender.
      const check = tx.verifySignedTransaction(signed);
      const d = check.ok ? check.decoded : undefined;
      if (!d || d.txID !== unsigned.txID || d.ownerAddress !== from || d.trc20Transfer?.to !== to || d.trc20Transfer.amount !== amount) {
        throw new TrxRentError({ code: 'INVALID_TRANSACTION', message: `The signed transfer is not the one built${check.ok ? '' : ` (${check.reason})`}; nothing was sent`, details: { stage: 'sign', transfer_sent: false } });
      }
      return { txID: unsigned.txID, raw_data: unsigned.raw_data, raw_data_hex: unsigned.raw_data_hex, signature: signed.signature };
    },
  };
}
