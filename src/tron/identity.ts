/**
 * One identity per transfer: a TRC-20 transfer is signed once, and its signed bytes, tx id and
 * expiration are kept with the caller's idempotency key ({@link TransferRecord}) before the
 * first broadcast. A retry with the same key never signs anew while that transaction may still
 * land: it re-broadcasts the same bytes and waits for the receipt ({@link landTransfer}) until
 * the solidified block passes the expiration ('expired'): only then may a new one be signed.
 *
 * Records live in a {@link TransferStore}, a view over one journal (`transfer-store.ts`).
 * @module
 */
import { TimeoutError, TrxRentError } from '../errors/index.js';
import { type Clock, pollUntil } from '../utils/clock.js';
import type { TronNode } from './node.js';
import type { TransactionInfo } from './node-answers.js';

/** One signed transfer, kept with the idempotency key it was made for. */
export interface TransferRecord {
  /** The caller's idempotency key (payouts: `<batch key>:<row id>`). */
  key: string;
  /** sha256(raw_data) lowercase hex, known before the broadcast. */
  tx_id: string;
  /** The signed transaction exactly as it is broadcast (every re-broadcast sends these bytes). */
  signed: { txID: string; raw_data: unknown; raw_data_hex: string; signature: string[] };
  /** raw_data.expiration, ms since epoch. */
  expiration: number;
  from: string;
  to: string;
  /** The TRC-20 contract (base58). */
  contract: string;
  /** The amount in the token's atomic units (integer string). */
  amount_atomic: string;
  /** clock.now() when signed. */
  created_at: number;
  /** Set (and stored) just BEFORE the first broadcast request leaves. */
  broadcast_at?: number | undefined;
}

/**
 * Where records live; put() is durable before it resolves (fsync for files). The stores of this
 * package are views over one journal ({@link memoryTransferStore}, {@link fileTransferStore},
 * or any `Store`'s journal through `journalTransferStore`).
 */
export interface TransferStore {
  /** The record kept under `key`, or undefined when none is. */
  get(key: string): Promise<TransferRecord | undefined>;
  /** Keep `record` under its key, durably (fsync for files) before it resolves. */
  put(record: TransferRecord): Promise<void>;
  /** Forget a record whose transaction is known dead (expired unconfirmed), so the key may sign anew. */
  delete(key: string): Promise<void>;
  /**
   * Run `fn` with `key` to itself across every process sharing the store (the transfer
   * protocol signs inside, after looking for the key's record again): two processes with one
   * key sign once. A store without it is shared by one process only.
   */
  exclusive?<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** What became of a signed transfer. */
export type TransferState = 'confirmed' | 'failed' | 'pending' | 'expired';

/** The state of one transaction, as `client.transfers.status` reads it from the node. */
export interface TransferStatus {
  tx_id: string;
  state: TransferState;
  /** The block it is in (confirmed or failed). */
  block?: number;
  /** The receipt's result (`SUCCESS`, `REVERT`, `OUT_OF_ENERGY` …). */
  result?: string;
  receipt?: TransactionInfo;
  /** The transaction's expiration, when known. */
  expiration?: number;
  /** The solidified block's timestamp, when it was read. */
  solidified_block_time?: number;
}

function normalizeTxId(txId: string): string {
  const hex = typeof txId === 'string' ? txId.replace(/^0x/i, '').toLowerCase() : '';
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new TrxRentError({ code: 'VALIDATION_ERROR', message: 'txId must be 64 hex characters', details: { field: 'txId' } });
  return hex;
}

/**
 * Read-only: receipt → confirmed/failed; else expired iff the solidified block's timestamp has
 * passed `expiration` (when known) AND so has the local clock (`options.now`): a node that
 * reports a solidified block from the future cannot make a live transaction look dead; else
 * pending. A receipt for another id is a NODE_ERROR.
 */
export async function transferStatus(
  node: TronNode,
  txId: string,
  expiration?: number,
  options: { signal?: AbortSignal | undefined; now?: number | undefined } = {},
): Promise<TransferStatus> {
  const id = normalizeTxId(txId);
  const info = await node.getTransactionInfo(id, { signal: options.signal });
  const known = expiration === undefined ? {} : { expiration };
  if (info) {
    if (String(info.id).toLowerCase() !== id) {
      throw new TrxRentError({
        code: 'NODE_ERROR',
        message: `The node answered the receipt of ${String(info.id)} when asked for ${id}`,
        details: { reason: 'RECEIPT_MISMATCH', tx_id: id, answered_tx_id: info.id },
      });
    }
    const result = info.receipt?.result ?? info.result ?? 'SUCCESS';
    return { tx_id: id, state: result === 'SUCCESS' ? 'confirmed' : 'failed', block: info.blockNumber!, result, receipt: info, ...known };
  }
  if (expiration === undefined) return { tx_id: id, state: 'pending' };
  const solid = await node.getSolidifiedBlock({ signal: options.signal });
  const time = solid.timestamp;
  // A block after `expiration` cannot take the transaction; once such a block is solid, no fork can either.
  const localPast = options.now === undefined || options.now > expiration;
  const state = time !== undefined && time > expiration && localPast ? 'expired' : 'pending';
  return { tx_id: id, state, ...known, ...(time === undefined ? {} : { solidified_block_time: time }) };
}

async function lookAgain(node: TronNode, status: TransferStatus, signal: AbortSignal | undefined): Promise<TransferStatus> {
  for (const solidified of [false, true]) {
    const info = await node.getTransactionInfo(status.tx_id, { signal, solidified });
    if (info && String(info.id).toLowerCase() === status.tx_id) {
      const result = info.receipt?.result ?? info.result ?? 'SUCCESS';
      return {
        tx_id: status.tx_id,
        state: result === 'SUCCESS' ? 'confirmed' : 'failed',
        block: info.blockNumber!,
        result,
        receipt: info,
        expiration: status.expiration,
      };
    }
  }
  return status;
}

/** Options of {@link landTransfer}. */
export interface LandOptions {
  /** Hands the signed bytes to the network (e.g. `client.transactions.broadcast`); throws when refused. */
  broadcast: (signed: TransferRecord['signed']) => Promise<void>;
  clock: Clock;
  /** Give up at this instant of `clock` (a TimeoutError, outcome unknown). */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** Re-broadcast the same bytes this often while pending and unexpired. @default 10000 */
  rebroadcastEveryMs?: number | undefined;
  /** Broadcast at the first poll (a retry) or only after `rebroadcastEveryMs` (just broadcast). @default true */
  broadcastFirst?: boolean | undefined;
}

/** A refusal that means "already have it": the transaction is on its way, not refused. */
export function isDuplicateBroadcast(error: unknown): boolean {
  const e = error as { code?: unknown; details?: { reason?: unknown }; message?: unknown } | undefined;
  const words = `${String(e?.code ?? '')} ${String(e?.details?.reason ?? '')} ${String(e?.message ?? '')}`;
  return /DUP_TRANSACTION|dup transaction/i.test(words);
}

/**
 * Drive one signed transfer to a final state without ever signing anew: re-broadcast the SAME
 * signed bytes (a DUP_TRANSACTION / "Dup transaction." refusal counts as accepted) and poll for
 * the receipt (pollUntil on `clock`) until confirmed/failed, or until the solidified block passes
 * `expiration` (then 'expired': only now may the caller sign a new transaction), or `deadline`
 * (TimeoutError with details { tx_id, expiration, transfer_sent: 'unknown' }). Node faults while
 * polling (5xx, 429, lost answers) are waited out until the deadline; a receipt for another id
 * ends it at once (NODE_ERROR).
 */
export async function landTransfer(
  node: TronNode,
  record: Pick<TransferRecord, 'tx_id' | 'expiration' | 'signed'>,
  options: LandOptions,
): Promise<TransferStatus> {
  const { clock, signal } = options;
  const every = options.rebroadcastEveryMs ?? 10_000;
  let lastBroadcast = options.broadcastFirst === false ? clock.now() : -Infinity;
  let lastError: unknown;
  const tryBroadcast = async () => {
    lastBroadcast = clock.now();
    try {
      await options.broadcast(record.signed);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // A refusal or a fault: the bytes may still be on the network; the receipt decides.
      if (!isDuplicateBroadcast(error)) lastError = error;
    }
  };
  try {
    return await pollUntil<TransferStatus>(
      async () => {
        let status: TransferStatus;
        try {
          status = await transferStatus(node, record.tx_id, record.expiration, { signal, now: clock.now() });
          // Before a transaction is called dead, look for it once more, on the node and the
          // solidity node: one answer that hid a receipt must not let the key sign again.
          if (status.state === 'expired') status = await lookAgain(node, status, signal);
        } catch (error) {
          if (signal?.aborted || (error as TrxRentError)?.details?.reason === 'RECEIPT_MISMATCH') throw error;
          lastError = error;
          return { done: false };
        }
        if (status.state !== 'pending') return { done: true, value: status };
        if (clock.now() - lastBroadcast >= every && clock.now() < record.expiration) await tryBroadcast();
        return { done: false, last: status };
      },
      { timeoutMs: Math.max(0, options.deadline - clock.now()), clock, signal, intervalMs: 500, maxIntervalMs: 3_000 },
    );
  } catch (error) {
    if (error instanceof TimeoutError && !signal?.aborted) {
      const why = lastError instanceof Error ? ` (last: ${lastError.message})` : '';
      const timeout = new TimeoutError(
        `Transfer ${record.tx_id} is in no block yet and has not expired (expiration ${new Date(record.expiration).toISOString()})${why}; its outcome is unknown: check it, or retry with the same idempotency key`,
        lastError ?? error,
      );
      (timeout as { details: unknown }).details = { tx_id: record.tx_id, expiration: record.expiration, transfer_sent: 'unknown' };
      throw timeout;
    }
    throw error;
  }
}
