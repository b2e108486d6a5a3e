/**
 * Signature recovery for the mock, remembered: a broadcast is checked by the account API's
 * route and again by the chain (java-tron's own order of checks), and recovering a secp256k1
 * key is the mock's dearest step (a third of its CPU in a payout batch). Recovery is a pure
 * function of (txID, signature), so remembering the last few thousand answers changes nothing
 * but the time.
 * @module
 */
import { recoverTransactionSigner } from '../../protocol/tron-transaction.js';

const MAX = 4_096;
const recovered = new Map<string, string | undefined>();

/** {@link recoverTransactionSigner}, remembered for the last {@link MAX} (txID, signature) pairs. */
export function recoverSigner(txID: string, signatureHex: string): string | undefined {
  const key = `${txID.toLowerCase()}:${signatureHex.toLowerCase()}`;
  if (recovered.has(key)) return recovered.get(key);
  const signer = recoverTransactionSigner(txID, signatureHex);
  if (recovered.size >= MAX) recovered.delete(recovered.keys().next().value as string);
  recovered.set(key, signer);
  return signer;
}
