/**
 * The one transfer protocol: a TRC-20 transfer is built, signed, verified, stored, broadcast and
 * landed here and nowhere else. `transfers.send` and every payout row call {@link transferOnce};
 * each gets every check:
 *
 * - a key that signed before lands that transaction (the same bytes re-broadcast), never a new
 *   one while it may still land; the record is looked for again inside the store's lock right
 *   before signing, so two processes with one key sign once and the second lands the first's;
 * - expiration counts from the chain's head block time plus the caller's window (60 s for a
 *   single send, longer for a batch, at most 24 h); a node's word alone never makes it dead
 *   (`identity.ts`: the local clock must be past it too, and the transaction is looked for again);
 * - fee_limit: the caller's, else the energy's burn cost plus 10 %, never above the chain's
 *   getMaxFeeLimit or the caller's ceiling ({@link feeLimitFor});
 * - the signed bytes must be exactly the transfer built, signed by the sender, or, for an
 *   account's permission (a multi-signature account), by distinct keys of that permission whose
 *   weights reach its threshold, every one over the same txID;
 * - stored durably before the broadcast request leaves; a broadcast answer naming another tx id
 *   is an error of unknown outcome; a definite refusal either throws or is landed (the caller's
 *   policy), a lost answer is landed;
 * - a receipt for another id, or with figures out of bounds, is a NODE_ERROR.
 *
 * Events go to one sink (`onEvent`): progress displays, the payout journal and MCP effects all
 * read them.
 * @module
 */
import { TrxRentError, outcomeOf } from '../errors/index.js';
import type { Clock } from '../utils/clock.js';
import { type TransferRecord, type TransferStatus, type TransferStore, isDuplicateBroadcast, landTransfer } from './identity.js';
import { DEFAULT_MAX_FEE_LIMIT_SUN, NODE_BOUNDS, defaultFeeLimit, invalid } from './inputs.js';
import type { TronNode } from './node.js';
import { type TransferWho, isPermissionSigners, signChecked } from './transfer-sign.js';

export { type PermissionSigners, type TransferWho, isPermissionSigners } from './transfer-sign.js';

/** The longest a signed transfer may stay valid: java-tron refuses an expiration more than 24 h ahead. */
export const MAX_EXPIRATION_MS = 86_400_000;
/** A single send's window: java-tron's own builder's (head block time + 60 s). */
export const SEND_EXPIRATION_MS = 60_000;

type Who = TransferWho;

/** The transfer to make once: its identity and what it moves. */
export interface TransferIntent {
  /** The idempotency key the signed transaction is stored under. */
  key: string;
  from: string;
  to: string;
  /** The TRC-20 contract (base58). */
  contract: string;
  amount_atomic: string;
}

/** What fee_limit is made of. */
export interface FeeLimitInput {
  /** Energy the transfer needs. */
  energy: number;
  /** The chain's getEnergyFee, SUN per energy unit. */
  energyFeeSun: number;
  /** A fixed fee_limit (checked against the ceiling). */
  feeLimitSun?: number | undefined;
  /** The caller's ceiling. @default 100 TRX */
  maxFeeLimitSun?: number | undefined;
  /** Burning, not renting: the whole burn must fit under the ceiling. */
  burn?: boolean | undefined;
}

/** What the protocol reports as it goes. */
export type TransferEvent =
  | { step: 'resumed'; key: string; tx_id: string; expiration: number }
  | { step: 'signed'; key: string; tx_id: string; expiration: number }
  /** The broadcast request is about to leave: from here on the transfer may be sent. */
  | { step: 'broadcasting'; key: string; tx_id: string; expiration: number }
  /** The first broadcast answered (`refused`: it was refused or got no answer; landing goes on with the same bytes). */
  | { step: 'broadcast'; key: string; tx_id: string; refused: boolean }
  | { step: 'expired'; key: string; tx_id: string };

/** What landing a transaction signed before runs on ({@link landEarlier}: it never signs). */
export interface LandingDeps {
  node: TronNode;
  clock: Clock;
  store: TransferStore;
  /** Hands the signed bytes to the network (`client.transactions.broadcast`); its answer's tx id is checked. */
  broadcast: (signed: TransferRecord['signed']) => Promise<{ tx_id?: string | undefined } | void>;
}

/** What {@link transferOnce} runs on. */
export interface TransferDeps extends LandingDeps {
  /**
   * The sender and what signs: `{ from, privateKey }` or `{ from, tronWeb }` (`resolveSigner`),
   * or an account's permission and its signers ({@link PermissionSigners}).
   */
  signer: Who;
}

/** How a transaction is landed (see {@link landEarlier}). */
export interface LandingOptions {
  /** Give up landing at this instant of the clock (a TimeoutError, outcome unknown). */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** Re-broadcast a pending transaction's same bytes this often, ms. @default 10000 */
  rebroadcastEveryMs?: number | undefined;
  onEvent?: ((event: TransferEvent) => void) | undefined;
}

/** Options of one {@link transferOnce}. */
export interface TransferOptions extends LandingOptions {
  fee: FeeLimitInput;
  /** How long the signed transaction stays valid, from the chain's head block time, ms. @default 60000 */
  expirationMs?: number | undefined;
  /** A definite refusal of the first broadcast: `throw` it (single send) or `land` the same bytes until they land or expire (batches). @default 'throw' */
  onRefused?: 'throw' | 'land' | undefined;
  /** The reference block (TAPOS); a batch shares one read among its rows. @default the node's head block */
  refBlock?: (() => Promise<{ number: number; id: string; timestamp: number | undefined }>) | undefined;
  /** The chain's getMaxFeeLimit; a batch reads it once. @default read from the node */
  chainMaxFeeLimit?: (() => Promise<number | undefined>) | undefined;
  /** Called before a NEW transaction is signed (not for one landed again); its return runs once the transfer settles. */
  prepare?: (() => Promise<(() => void) | void>) | undefined;
}

/** What became of the transfer: its record and final status, `expired` meaning signed anew may follow. */
export interface TransferOutcome {
  record: TransferRecord;
  status: TransferStatus;
  /** True when the key's transaction was signed by an earlier call and landed here. */
  resumed: boolean;
}

/**
 * fee_limit: the caller's, else the burn cost plus 10 %; never above the chain's getMaxFeeLimit
 * or the stated ceiling. With `chainMax` undefined (before renting) it only refuses what cannot run.
 */
export function feeLimitFor(input: FeeLimitInput, chainMax: number | undefined): number {
  const ceiling = Math.min(input.maxFeeLimitSun ?? DEFAULT_MAX_FEE_LIMIT_SUN, chainMax ?? Number.MAX_SAFE_INTEGER);
  if (input.feeLimitSun !== undefined) {
    if (input.feeLimitSun > ceiling)
      throw invalid('feeLimitSun', `${input.feeLimitSun} SUN is above the ceiling of ${ceiling} SUN (maxFeeLimitSun and the chain's getMaxFeeLimit)`);
    return input.feeLimitSun;
  }
  const wanted = defaultFeeLimit(input.energy, input.energyFeeSun);
  // java-tron caps the energy a call may use, staked or delegated energy included, at
  // fee_limit / getEnergyFee (VMActuator.getAccountEnergyLimitWithFixRatio): under a lower
  // fee_limit the transfer runs out of energy, rented or not, and burns what it used for nothing.
  const least = input.energy * input.energyFeeSun;
  if (input.burn ? wanted > ceiling : least > ceiling) {
    const needs = input.burn ? wanted : least;
    throw new TrxRentError({
      code: 'SPENDING_CAP_EXCEEDED',
      message: input.burn
        ? `Burning for ${input.energy} energy needs a fee_limit of ${wanted} SUN, above the ceiling of ${ceiling} SUN; nothing was sent (rent instead, or raise maxFeeLimitSun)`
        : `${input.energy} energy needs a fee_limit of at least ${least} SUN even when rented (java-tron caps a call's energy at fee_limit), above the ceiling of ${ceiling} SUN; nothing was sent (raise maxFeeLimitSun)`,
      details: { field: 'maxFeeLimitSun', fee_limit_sun: needs, ceiling_sun: ceiling },
    });
  }
  // With the energy rented, fee_limit above the energy's cost only covers a shortfall: the ceiling is safe to apply.
  return Math.min(wanted, ceiling);
}

/** The expiration window, checked: a positive number of ms, at most 24 h. */
export function expirationWindow(ms: number | undefined, field = 'expirationMs'): number {
  const window = ms ?? SEND_EXPIRATION_MS;
  if (!Number.isSafeInteger(window) || window < 1_000 || window > MAX_EXPIRATION_MS)
    throw invalid(field, `must be whole ms from 1000 to ${MAX_EXPIRATION_MS} (24 h), not ${String(ms)}`);
  return window;
}

/** A refusal that cannot have sent anything: the service or node said no (not a fault, not a duplicate). */
function definitelyRefused(error: unknown): boolean {
  if (isDuplicateBroadcast(error)) return false;
  if (error instanceof TrxRentError && error.code === 'BROADCAST_FAILED' && error.status === undefined) return true;
  return outcomeOf(error) === 'not_sent';
}

/** Receipt figures a node may get wrong: each a safe whole number from 0 to its bound, else NODE_ERROR. */
export function checkReceipt(info: NonNullable<TransferStatus['receipt']>, txId: string): void {
  const r = info.receipt;
  const figures: Array<[string, number | undefined, number]> = [
    ['fee', info.fee, NODE_BOUNDS.maxFeeLimitSun],
    ['receipt.energy_usage_total', r?.energy_usage_total, NODE_BOUNDS.maxTransferEnergy],
    ['receipt.energy_usage', r?.energy_usage, NODE_BOUNDS.maxTransferEnergy],
    ['receipt.origin_energy_usage', r?.origin_energy_usage, NODE_BOUNDS.maxTransferEnergy],
    ['receipt.energy_fee', r?.energy_fee, NODE_BOUNDS.maxFeeLimitSun],
    ['receipt.net_usage', r?.net_usage, 1_000_000],
    ['receipt.net_fee', r?.net_fee, NODE_BOUNDS.maxFeeLimitSun],
  ];
  for (const [field, value, max] of figures) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0 || value > max) {
      throw new TrxRentError({
        code: 'NODE_ERROR',
        message: `The node's receipt of ${txId} reports ${field} = ${value}, outside 0…${max}: check the transfer on another node`,
        details: { field, value, max, tx_id: txId },
      });
    }
  }
}

/** The key's earlier record must be this same transfer. */
function sameTransfer(earlier: TransferRecord, intent: TransferIntent): void {
  if (earlier.from !== intent.from || earlier.to !== intent.to || earlier.contract !== intent.contract || earlier.amount_atomic !== intent.amount_atomic) {
    throw new TrxRentError({
      code: 'VALIDATION_ERROR',
      message: `idempotencyKey ${intent.key} was used for another transfer (${earlier.amount_atomic} of ${earlier.contract} from ${earlier.from} to ${earlier.to}, tx ${earlier.tx_id}); use a new key for a new transfer`,
      details: { field: 'idempotencyKey', tx_id: earlier.tx_id },
    });
  }
}

/** The broadcast (its answer's tx id checked) and the landing of one intent's transactions. */
function lander(deps: LandingDeps, intent: TransferIntent, options: LandingOptions) {
  const { store, clock, node } = deps;
  let answered: string | undefined;
  const mismatch = (txId: string, id: string) =>
    new TrxRentError({
      code: 'INVALID_RESPONSE',
      message: `The service answered the broadcast of ${txId} with tx id ${id}: not the transaction signed here; its outcome is unknown`,
      details: { reason: 'TX_ID_MISMATCH', tx_id: txId.toLowerCase(), answered_tx_id: id, transfer_sent: 'unknown' },
    });
  const broadcast = async (signed: TransferRecord['signed']) => {
    const answer = await deps.broadcast(signed);
    const id = answer && typeof answer === 'object' ? answer.tx_id : undefined;
    if (id && id.replace(/^0x/i, '').toLowerCase() !== signed.txID.toLowerCase()) {
      answered = id;
      throw mismatch(signed.txID, id);
    }
  };
  const land = async (record: TransferRecord, broadcastFirst: boolean): Promise<TransferStatus> => {
    const status = await landTransfer(node, record, {
      broadcast,
      clock,
      deadline: options.deadline,
      signal: options.signal,
      broadcastFirst,
      rebroadcastEveryMs: options.rebroadcastEveryMs,
    });
    // A re-broadcast answered with another id: whatever the node says, the service is not to be trusted with this one.
    if (answered) throw mismatch(record.tx_id, answered);
    if (status.receipt) checkReceipt(status.receipt, record.tx_id);
    if (status.state === 'expired') {
      await store.delete(intent.key);
      options.onEvent?.({ step: 'expired', key: intent.key, tx_id: record.tx_id });
    }
    return status;
  };
  const resume = async (record: TransferRecord): Promise<TransferOutcome> => {
    sameTransfer(record, intent);
    options.onEvent?.({ step: 'resumed', key: intent.key, tx_id: record.tx_id, expiration: record.expiration });
    return { record, status: await land(record, true), resumed: true };
  };
  return { broadcast, land, resume, mismatched: () => answered !== undefined };
}

/**
 * Land the key's earlier transaction, if the store has one (never signing): its final status,
 * `expired` meaning the record is forgotten and the key may sign anew; undefined when the key
 * signed nothing yet.
 */
export async function landEarlier(deps: LandingDeps, intent: TransferIntent, options: LandingOptions): Promise<TransferOutcome | undefined> {
  const earlier = await deps.store.get(intent.key);
  return earlier ? lander(deps, intent, options).resume(earlier) : undefined;
}

/**
 * Make `intent` once: land the key's earlier transaction if there is one, else sign one (inside
 * the store's lock, after looking again), store it, broadcast it and land it. Returns its final
 * status: confirmed, failed (mined, reverted) or expired (it can never land; the record is
 * forgotten, so a next call signs anew). A TimeoutError at `deadline` leaves it pending.
 */
export async function transferOnce(deps: TransferDeps, intent: TransferIntent, options: TransferOptions): Promise<TransferOutcome> {
  const { store, clock, node, signer } = deps;
  const { signal, onEvent } = options;
  if (intent.from !== signer.from) throw invalid('signer', `signs for ${signer.from}, not the sender ${intent.from}`);
  const window = expirationWindow(options.expirationMs);
  const { broadcast, land, resume, mismatched } = lander(deps, intent, options);
  const earlier = await store.get(intent.key);
  if (earlier) return resume(earlier);

  const release = await options.prepare?.();
  try {
    const tx = await import('../protocol/tron-transaction.js');
    const [block, chainMax] = await Promise.all([
      options.refBlock ? options.refBlock() : node.getNowBlock({ signal }),
      options.chainMaxFeeLimit ? options.chainMaxFeeLimit() : node.getChainParameters({ signal }).then((p) => p.get('getMaxFeeLimit')),
    ]);
    const feeLimit = feeLimitFor(options.fee, chainMax);
    // Signed inside the store's lock after looking again: another process with this key may have signed meanwhile.
    const sign = async (): Promise<{ record: TransferRecord; mine: boolean }> => {
      const other = await store.get(intent.key);
      if (other) return { record: other, mine: false };
      const localNow = clock.now();
      // The expiration counts from the chain's time, as java-tron's own builder does: a local
      // clock that runs fast or slow cannot make it expired or too far ahead. The timestamp stays
      // the local clock's: two equal transfers built in one block must not share a txID.
      const unsigned = tx.buildTrc20Transfer({
        from: intent.from,
        contract: intent.contract,
        to: intent.to,
        amount: BigInt(intent.amount_atomic),
        refBlock: { number: block.number, hash: block.id },
        now: localNow,
        expirationMs: Math.max(1_000, (block.timestamp ?? localNow) + window - localNow),
        feeLimitSun: feeLimit,
        // In the raw data before the txID is computed: every signer signs the same id.
        ...(isPermissionSigners(signer) && signer.permissionId ? { permissionId: signer.permissionId } : {}),
      });
      const signed = await signChecked(tx, signer, unsigned, intent);
      const expiration = Number((unsigned.raw_data as { expiration: number }).expiration);
      const record: TransferRecord = { ...intent, tx_id: unsigned.txID.toLowerCase(), signed, expiration, created_at: localNow, broadcast_at: clock.now() };
      onEvent?.({ step: 'signed', key: intent.key, tx_id: record.tx_id, expiration });
      // Stored (durably) before the request leaves: a crash after this point leaves a retry the same bytes.
      await store.put(record);
      return { record, mine: true };
    };
    const { record, mine } = store.exclusive ? await store.exclusive(intent.key, sign, signal) : await sign();
    if (!mine) return resume(record);
    onEvent?.({ step: 'broadcasting', key: intent.key, tx_id: record.tx_id, expiration: record.expiration });
    let refused = false;
    let rateLimited = false;
    try {
      // No signal on the broadcast itself: once it is on its way, an abort could only hide the outcome.
      await broadcast(record.signed);
    } catch (error) {
      if (mismatched()) throw error;
      if (definitelyRefused(error) && (options.onRefused ?? 'throw') === 'throw') {
        const e = error as TrxRentError;
        throw new TrxRentError({
          code: e.code,
          message: `The broadcast of ${record.tx_id} was refused (${e.message}); it may still be on the network until ${new Date(record.expiration).toISOString()}: retry with the same idempotency key, never a new one`,
          status: e.status,
          details: { ...e.details },
          cause: e,
        });
      }
      // Lost answer, 5xx, 429, timeout (or a refusal the caller lands): the bytes may be on the network; landing decides.
      refused = true;
      // A 429 asked us to slow down: the same bytes go again after the re-broadcast interval, not at the first poll.
      rateLimited = (error as TrxRentError)?.status === 429;
    }
    onEvent?.({ step: 'broadcast', key: intent.key, tx_id: record.tx_id, refused });
    return { record, status: await land(record, refused && !rateLimited), resumed: false };
  } finally {
    if (typeof release === 'function') release();
  }
}
