/**
 * The paid sends' signed transfers: `signed_tx` read as JSON or serialized hex, checked as the
 * network would check it before any payment (signature, TRC-20 call, token, recipient, amount,
 * expiration, duplicate, TAPOS: a bad transfer is a free 400), then executed: the energy the
 * owner lacks rented from the cheapest provider (1-hour tier) and delegated, and the
 * transaction broadcast on the simulated chain.
 * @module
 */
import { type DecodedTransaction, type SignedTransactionLike, verifySignedTransaction } from '../../protocol/tron-transaction.js';
import { atomicToDecimal, decimalToAtomic, sunToTrx } from '../../utils/units.js';
import { SimulatedChain } from '../chain/chain.js';
import { recoverSigner } from '../chain/signatures.js';
import type { ChainToken } from '../chain/types.js';
import { HOUR_SEC, USDT, fail } from './paid-handler.js';
import type { PaidMock } from '../x402/paid.js';

/** `signed_tx` as a JSON string of a signed transaction, or the hex of a serialized Transaction. */
function parseSignedTx(text: string, field: string): SignedTransactionLike & Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      throw fail(400, 'VALIDATION_ERROR', `${field} is not valid JSON`, { field });
    }
  }
  if (/^(0x)?[0-9a-fA-F]+$/.test(trimmed)) {
    try {
      return SimulatedChain.decodeTransactionHex(trimmed);
    } catch (error) {
      throw fail(400, 'VALIDATION_ERROR', `${field} is not a serialized transaction (${(error as Error).message})`, { field });
    }
  }
  throw fail(400, 'VALIDATION_ERROR', `${field} must be a signed transaction as JSON or hex`, { field });
}

/** A signed TRC-20 transfer that passed every check the network would make. */
export interface CheckedTransfer {
  tx: SignedTransactionLike & Record<string, unknown>;
  decoded: DecodedTransaction;
  token: ChainToken;
  to: string;
  amount: bigint;
  owner: string;
  energyNeeded: number;
}

/** Everything the network would check before accepting, so a bad transfer is a free 400. */
export function checkTransfer(mock: PaidMock, signedText: string, to: string, amount: string, field: string, onlyUsdt: boolean): CheckedTransfer {
  const tx = parseSignedTx(signedText, field);
  const verified = verifySignedTransaction(tx, recoverSigner);
  if (!verified.ok) throw fail(400, 'VALIDATION_ERROR', `${field} does not verify (${verified.reason})`, { field, reason: verified.reason });
  const d = verified.decoded;
  if (d.contractType !== 'TriggerSmartContract' || !d.trc20Transfer || !d.contractAddress) {
    throw fail(400, 'VALIDATION_ERROR', `${field} is not a TRC-20 transfer`, { field, reason: 'not_trc20_transfer' });
  }
  const token = mock.chain.token(d.contractAddress);
  if (!token || (onlyUsdt && token.address !== USDT.address)) {
    throw fail(400, 'VALIDATION_ERROR', `${field} transfers ${d.contractAddress}, not ${onlyUsdt ? 'USDT' : 'a supported stablecoin'}`, {
      field,
      reason: 'unsupported_token',
    });
  }
  if (d.trc20Transfer.to !== to) throw fail(400, 'VALIDATION_ERROR', `${field} pays ${d.trc20Transfer.to}, not ${to}`, { field, reason: 'recipient_mismatch' });
  let expected: bigint;
  try {
    expected = decimalToAtomic(amount, token.decimals, field);
  } catch {
    throw fail(400, 'VALIDATION_ERROR', `amount has more than ${token.decimals} decimals`, { field });
  }
  if (d.trc20Transfer.amount !== expected) {
    throw fail(400, 'VALIDATION_ERROR', `${field} moves ${atomicToDecimal(d.trc20Transfer.amount, token.decimals)} ${token.symbol}, not ${amount}`, {
      field,
      reason: 'amount_mismatch',
    });
  }
  const now = mock.now();
  if (d.expiration <= now) throw fail(400, 'VALIDATION_ERROR', `${field} has expired`, { field, reason: 'TRANSACTION_EXPIRATION_ERROR' });
  if (mock.chain.transactions.has(d.txID)) throw fail(400, 'VALIDATION_ERROR', `${field} was already broadcast`, { field, reason: 'DUP_TRANSACTION_ERROR' });
  const offline = /^0+$/.test(d.refBlockHash) && /^0+$/.test(d.refBlockBytes);
  if (!offline && !mock.chain.taposMatches(d.refBlockBytes, d.refBlockHash)) {
    throw fail(400, 'VALIDATION_ERROR', `${field} references an unknown block`, { field, reason: 'TAPOS_ERROR' });
  }
  return { tx, decoded: d, token, to, amount: expected, owner: verified.signer, energyNeeded: mock.chain.trc20TransferEnergy(token.address, to) };
}

/** Energy the transfers' owners lack on the simulated chain, in all (what a dynamic price charges for). */
export function energyToBuy(mock: PaidMock, transfers: CheckedTransfer[]): bigint {
  const needByOwner = new Map<string, number>();
  for (const t of transfers) needByOwner.set(t.owner, (needByOwner.get(t.owner) ?? 0) + t.energyNeeded);
  let total = 0;
  for (const [owner, need] of needByOwner) total += Math.max(0, need - mock.chain.availableEnergy(owner));
  return BigInt(total);
}

/** Rent what the owner lacks from the cheapest provider (1-hour tier) and delegate it. */
function buyEnergy(mock: PaidMock, owner: string, needed: number) {
  const missing = Math.max(0, needed - mock.chain.availableEnergy(owner));
  if (missing === 0) return { energy_purchased: 0, energy_provider: null as string | null, energy_price_sun: 0, energy_cost_trx: '0' };
  let selection = mock.market.select({ resource: 'ENERGY', amount: missing, duration_sec: HOUR_SEC });
  let amount = missing;
  if (!selection.best && selection.reason === 'below_minimum' && selection.min_amount) {
    amount = selection.min_amount;
    selection = mock.market.select({ resource: 'ENERGY', amount, duration_sec: HOUR_SEC });
  }
  const best = selection.best;
  if (!best) return { energy_purchased: 0, energy_provider: null, energy_price_sun: 0, energy_cost_trx: '0' };
  mock.market.consume?.(best.provider, 'ENERGY', amount);
  mock.chain.delegateEnergy(owner, amount);
  return { energy_purchased: amount, energy_provider: best.provider, energy_price_sun: best.price_sun, energy_cost_trx: sunToTrx(amount * best.price_sun) };
}

/** Buy the energy the owner lacks, then broadcast: the result a send reports, or the network's refusal. */
export function executeTransfer(mock: PaidMock, t: CheckedTransfer) {
  const bought = buyEnergy(mock, t.owner, t.energyNeeded);
  const result = mock.chain.broadcast(t.tx);
  if (!result.result) return { ok: false as const, code: result.code, message: result.message, bought };
  const tx = result.transaction;
  return {
    ok: true as const,
    txid: tx.txid,
    status: tx.result === 'SUCCESS' ? 'confirmed' : 'reverted',
    block_number: tx.block,
    resources: {
      energy_used: tx.energyUsed,
      bandwidth_used: tx.netUsed,
      ...bought,
      trx_burnt: sunToTrx(tx.feeSun),
    },
  };
}
