/**
 * Signing a row's transfer: a private key (secp256k1 in this process; the key never leaves it)
 * or a TronWeb instance, and a check that what was signed is exactly the transfer built.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import type { UnsignedTransaction } from '../../protocol/tron-transaction.js';
import type { SendTronWeb, TransferSigner } from '../../tron/engine.js';
import type { TransferRecord } from './identity-types.js';

/** Who signs the rows. */
export interface RowSigner {
  from: string;
  /** Sign `unsigned` and check it is the transfer of `to`/`amount` from the sender. */
  sign(unsigned: UnsignedTransaction, to: string, amount: bigint): Promise<TransferRecord['signed']>;
}

/** The signer of a batch (loads the signing code). */
export async function rowSigner(signer: TransferSigner): Promise<RowSigner> {
  const [tx, { resolveSigner }] = await Promise.all([import('../../protocol/tron-transaction.js'), import('../../protocol/signer.js')]);
  // The one signer resolver (protocol/signer.ts): the same rules and errors as transfers.send.
  const who = resolveSigner<SendTronWeb>(signer as TransferSigner);
  const from = who.from;
  const sign = (u: UnsignedTransaction): Promise<unknown> => (who.privateKey !== undefined ? Promise.resolve(tx.signTransaction(u, who.privateKey)) : who.tronWeb.trx.sign(u as never));
  return {
    from,
    async sign(unsigned, to, amount) {
      const signed = (await sign(unsigned)) as UnsignedTransaction & { signature: string[] };
      // Trust only raw_data_hex: it must be the transfer built here, signed by the sender. A key
      // held here signed exactly these bytes a moment ago, so only a TronWeb's signature (which
      // may come from another key or another transaction) pays for the recovery, the dearest step.
      const check = who.privateKey !== undefined ? tx.verifySignedTransaction(signed, () => from) : tx.verifySignedTransaction(signed);
      const d = check.ok ? check.decoded : undefined;
      if (!d || d.txID !== unsigned.txID || d.ownerAddress !== from || d.trc20Transfer?.to !== to || d.trc20Transfer.amount !== amount) {
        throw new TrxRentError({ code: 'INVALID_TRANSACTION', message: `The signed transfer is not the one built${check.ok ? '' : ` (${check.reason})`}; nothing was sent`, details: { stage: 'sign', transfer_sent: false } });
      }
      return { txID: unsigned.txID, raw_data: unsigned.raw_data, raw_data_hex: unsigned.raw_data_hex, signature: signed.signature };
    },
  };
}
