/**
 * `transfers.send`: one TRC-20 transfer, sent once. Estimate, rent the deficit (orders keyed
 * `<key>:energy`), build and sign locally ONCE, store the signed transaction with the idempotency
 * key before the broadcast request leaves, broadcast through the service, then land it
 * (`landTransfer`: the same bytes re-broadcast, the receipt awaited). A retry with the same key
 * finds the stored transaction and lands it; only once it is known dead (expired, the solidified
 * block past its expiration) may a new one be signed. Every error after a step that may have
 * had an effect says where it stopped and what is known (`details`: stage, transfer_sent,
 * tx_id, expiration, order_id, idempotency_key).
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { Transactions } from '../resources/transactions.js';
import { decimalToAtomic } from '../utils/units.js';
import { startDeadline, type Deadline } from './deadline.js';
import type { Confirmation, EngineDeps, EnsureResult, SendTransferParams, SendTronWeb, SentTransfer, TransferEstimate, TransferSigner } from './types.js';
import { DEFAULT_MAX_FEE_LIMIT_SUN, DEFAULT_TIMEOUT_MS, chainFees, checkAbort, defaultFeeLimit, invalid, optionalSun, positiveInt, resolveToken } from './inputs.js';
import { ensureResources } from './ensure.js';
import { estimateTransfer } from './estimate.js';
import { type TransferRecord, isDuplicateBroadcast, landTransfer, memoryTransferStore } from './identity.js';
import { SEND_LOCKS } from './mutex.js';
import { type Known, checkKey, finish } from './send-known.js';
import { report, solidify } from './send-receipt.js';

/**
 * Send a TRC-20 transfer without burning TRX for its energy: estimate, ensure (rent the
 * deficit), build and sign locally, keep the signed transaction with the idempotency key,
 * broadcast through the service (`client.transactions.broadcast`), wait for the receipt, and
 * report the cost against burning. `timeoutMs` bounds the whole call; one process sends from
 * one sender at a time.
 */
export async function sendTransfer(deps: EngineDeps, params: SendTransferParams): Promise<SentTransfer> {
  const [tx, { resolveSigner }] = await Promise.all([import('../protocol/tron-transaction.js'), import('../protocol/signer.js')]);
  const who = resolveSigner<SendTronWeb>(params?.signer as TransferSigner);
  const timeoutMs = params.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : positiveInt(params.timeoutMs, 'timeoutMs');
  const key = checkKey(params.idempotencyKey) ?? `send-${globalThis.crypto.randomUUID()}`;
  optionalSun(params.maxCostSun, 'maxCostSun');
  optionalSun(params.feeLimitSun, 'feeLimitSun');
  optionalSun(params.maxFeeLimitSun, 'maxFeeLimitSun');
  const deadline = startDeadline(deps.http.clock, timeoutMs, params.signal);
  const known: Known = { stage: undefined, left: false, idempotency_key: key };
  try {
    return await SEND_LOCKS.run(who.from, () => sendLocked(deps, params, who, key, deadline, known, tx), deadline.signal);
  } catch (error) {
    throw finish(error, known, deadline, timeoutMs);
  }
}

type TxModule = typeof import('../protocol/tron-transaction.js');
type ResolvedSigner<T extends SendTronWeb> = import('../protocol/signer.js').ResolvedSigner<T>;

async function sendLocked(
  deps: EngineDeps,
  params: SendTransferParams,
  who: ResolvedSigner<SendTronWeb>,
  key: string,
  deadline: Deadline,
  known: Known,
  tx: TxModule,
): Promise<SentTransfer> {
  const { onProgress } = params;
  const signal = deadline.signal;
  const confirmed = confirmationOf(params);
  const store = params.transferStore ?? deps.store ?? memoryTransferStore();
  const transactions = new Transactions(deps.http);
  const broadcast = async (signed: TransferRecord['signed']) => {
    const answer = await transactions.broadcast({ signed_tx: signed as never }, { timeoutMs: deadline.budget() });
    if (answer.tx_id && answer.tx_id.replace(/^0x/i, '').toLowerCase() !== signed.txID.toLowerCase()) {
      throw new TrxRentError({
        code: 'INVALID_RESPONSE',
        message: `The service answered the broadcast of ${signed.txID} with tx id ${answer.tx_id}: not the transaction signed here; its outcome is unknown`,
        details: { reason: 'TX_ID_MISMATCH', tx_id: signed.txID, answered_tx_id: answer.tx_id },
      });
    }
  };
  const land = (record: TransferRecord, first: boolean) =>
    landTransfer(deps.node, record, { broadcast, clock: deps.http.clock, deadline: deadline.at, signal, broadcastFirst: first });

  // A transfer this key signed before: land it, never sign anew while it may still land.
  const earlier = await store.get(key);
  if (earlier) {
    const token = await resolveToken(deps.node, params.token, who.from, signal);
    const atomic = decimalToAtomic(params.amount, token.decimals, 'amount').toString();
    if (earlier.from !== who.from || earlier.to !== params.to || earlier.contract !== token.address || earlier.amount_atomic !== atomic) {
      throw new TrxRentError({
        code: 'VALIDATION_ERROR',
        message: `idempotencyKey ${key} was used for another transfer (${earlier.amount_atomic} of ${earlier.contract} from ${earlier.from} to ${earlier.to}, tx ${earlier.tx_id}); use a new key for a new transfer`,
        details: { field: 'idempotencyKey', tx_id: earlier.tx_id },
      });
    }
    Object.assign(known, { stage: 'receipt', left: true, tx_id: earlier.tx_id, expiration: earlier.expiration });
    onProgress?.({ step: 'resumed', tx_id: earlier.tx_id, expiration: earlier.expiration });
    const status = await land(earlier, true);
    if (status.state !== 'expired') return report(deps, params, await solidify(deps, status, confirmed, deadline), earlier, token, null, null, known, true);
    // Known dead: no block can take it any more. Only now may this key sign a new transaction.
    await store.delete(key);
    Object.assign(known, { stage: undefined, left: false, tx_id: undefined, expiration: undefined });
  }

  const estimate = await estimateTransfer(deps, { from: who.from, to: params.to, token: params.token, amount: params.amount, duration: params.duration }, { signal });
  onProgress?.({ step: 'estimated', estimate });
  // Refuse what cannot succeed before anything is rented (the estimate has checked the tokens).
  const account = await deps.node.getAccount(who.from, { signal, timeoutMs: deadline.budget() });
  const mustBurn = params.burn ? estimate.burn.total_sun : estimate.burn.bandwidth_sun;
  if (account.balance < mustBurn) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TRX',
      message: `${who.from} holds ${account.balance} SUN but the transfer would burn ${mustBurn} SUN; nothing was ordered or sent`,
      details: { balance_sun: account.balance, needed_sun: mustBurn },
    });
  }
  // A fee_limit ceiling the transfer cannot run under is refused before anything is rented (the chain's getMaxFeeLimit is checked again at signing).
  feeLimitFor(params, estimate, undefined);
  if (typeof params.confirm === 'function' && !(await params.confirm(estimate))) {
    throw new TrxRentError({ code: 'CANCELLED', message: 'Cancelled before anything was ordered or sent' });
  }
  checkAbort(signal);

  let ensured: EnsureResult | null = null;
  if (!params.burn && estimate.energy.deficit > 0) {
    Object.assign(known, { stage: 'order', order_key: `${key}:energy` });
    try {
      ensured = await ensureResources(
        deps,
        {
          address: who.from,
          energy: estimate.energy.needed,
          duration: params.duration,
          maxCostSun: params.maxCostSun,
          timeoutMs: Math.max(1, deadline.left()),
          signal,
          onProgress: (e) => {
            if (e.step === 'ordered') Object.assign(known, { stage: 'delegation', order_id: e.order.id });
            onProgress?.(e);
          },
        },
        { orderKeys: { energy: `${key}:energy`, bandwidth: `${key}:bw` }, deadline },
      );
    } catch (error) {
      if (error instanceof TrxRentError && error.code !== 'CANCELLED' && error.code !== 'TIMEOUT' && !signal?.aborted) {
        const reason = error.code === 'ORDER_FAILED' ? orderFailure(error) : error.message;
        throw new TrxRentError({
          code: error.code,
          message: `The transfer was not sent: renting energy failed (${reason})${known.order_id ? `; order ${known.order_id}` : ''}; a retry with the same idempotency key (${key}) reuses its order key ${key}:energy`,
          status: error.status,
          details: { ...error.details },
          cause: error,
        });
      }
      throw error;
    }
  }
  checkAbort(signal);

  known.stage = 'sign';
  const [block, fees] = await Promise.all([deps.node.getNowBlock({ signal, timeoutMs: deadline.budget() }), chainFees(deps.node, signal)]);
  const feeLimit = feeLimitFor(params, estimate, fees.max_fee_limit_sun);
  // The expiration counts from the chain's time, as java-tron's own builder does (head block +
  // 60 s): a local clock that runs fast or slow cannot make it expired or too far ahead. The
  // timestamp stays the local clock's: two equal transfers built in one block must not share a txID.
  const localNow = deps.http.clock.now();
  const unsigned = tx.buildTrc20Transfer({
    from: who.from,
    contract: estimate.token.address,
    to: estimate.to,
    amount: BigInt(estimate.amount_atomic),
    refBlock: { number: block.number, hash: block.id },
    now: localNow,
    expirationMs: (block.timestamp ?? localNow) + 60_000 - localNow,
    feeLimitSun: feeLimit,
  });
  const signed = (who.privateKey ? tx.signTransaction(unsigned, who.privateKey) : await who.tronWeb!.trx.sign(unsigned as never)) as typeof unsigned & { signature: string[] };
  // Trust only raw_data_hex: it must be exactly the transfer built here, signed by the sender.
  const check = tx.verifySignedTransaction(signed);
  const d = check.ok ? check.decoded : undefined;
  if (!d || d.txID !== unsigned.txID || d.ownerAddress !== who.from || d.trc20Transfer?.to !== estimate.to || d.trc20Transfer.amount !== BigInt(estimate.amount_atomic)) {
    throw new TrxRentError({ code: 'INVALID_TRANSACTION', message: `The signed transfer is not the one built${check.ok ? '' : ` (${check.reason})`}; nothing was sent` });
  }
  const txId = d.txID.toLowerCase();
  Object.assign(known, { tx_id: txId, expiration: d.expiration });
  onProgress?.({ step: 'signed', tx_id: txId, expiration: d.expiration });
  checkAbort(signal);

  const record: TransferRecord = {
    key,
    tx_id: txId,
    signed: { txID: signed.txID, raw_data: signed.raw_data, raw_data_hex: signed.raw_data_hex, signature: signed.signature },
    expiration: d.expiration,
    from: who.from,
    to: estimate.to,
    contract: estimate.token.address,
    amount_atomic: estimate.amount_atomic,
    created_at: deps.http.clock.now(),
  };
  // Stored (durably, for a file store) before the request leaves: a crash after this point leaves a retry the same bytes.
  record.broadcast_at = deps.http.clock.now();
  await store.put(record);
  checkAbort(signal);
  known.stage = 'broadcast';
  known.left = true;
  onProgress?.({ step: 'broadcasting', tx_id: txId, expiration: d.expiration });
  try {
    // No signal on the broadcast itself: once it is on its way, an abort could only hide the outcome.
    await broadcast(record.signed);
  } catch (error) {
    if (!(error instanceof TrxRentError) || !isDefinitiveRefusal(error)) {
      // Lost answer, 5xx, 429, timeout: the bytes may be on the network; landing decides.
      if (error instanceof TrxRentError && error.details?.reason === 'TX_ID_MISMATCH') throw error;
    } else {
      throw new TrxRentError({
        code: error.code,
        message: `The broadcast of ${txId} was refused (${error.message}); it may still be on the network until ${new Date(d.expiration).toISOString()}: retry with the same idempotency key, never a new one`,
        status: error.status,
        details: { ...error.details },
        cause: error,
      });
    }
  }
  onProgress?.({ step: 'broadcast', tx_id: txId });
  known.stage = 'receipt';
  const status = await land(record, false);
  if (status.state === 'expired') {
    await store.delete(key);
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `Transfer ${txId} expired without landing (the solidified block passed its expiration): it was not sent; retrying with the same idempotency key signs a new one`,
      details: { state: 'expired' },
    });
  }
  return report(deps, params, await solidify(deps, status, confirmed, deadline), record, estimate.token, estimate, ensured, known, false);
}

/** `confirmation`, or `confirm` given as a level; anything else is a VALIDATION_ERROR naming the field. */
function confirmationOf(params: SendTransferParams): Confirmation {
  const level = params.confirmation ?? (typeof params.confirm === 'string' ? params.confirm : undefined) ?? 'included';
  if (level !== 'included' && level !== 'solidified') throw invalid(params.confirmation !== undefined ? 'confirmation' : 'confirm', `must be 'included' or 'solidified', not ${String(level)}`);
  return level;
}

/** A refusal that cannot have sent anything: the service or node said no (not a fault, not a duplicate). */
function isDefinitiveRefusal(error: TrxRentError): boolean {
  if (isDuplicateBroadcast(error)) return false;
  const status = error.status ?? 0;
  if (error.code === 'BROADCAST_FAILED') return true;
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** fee_limit: the caller's, else the burn cost plus 10 %; never above the chain's getMaxFeeLimit or the stated ceiling. */
function feeLimitFor(params: SendTransferParams, estimate: TransferEstimate, chainMax: number | undefined): number {
  const ceiling = Math.min(params.maxFeeLimitSun ?? DEFAULT_MAX_FEE_LIMIT_SUN, chainMax ?? Number.MAX_SAFE_INTEGER);
  if (params.feeLimitSun !== undefined) {
    if (params.feeLimitSun > ceiling) throw invalid('feeLimitSun', `${params.feeLimitSun} SUN is above the ceiling of ${ceiling} SUN (maxFeeLimitSun and the chain's getMaxFeeLimit)`);
    return params.feeLimitSun;
  }
  const wanted = defaultFeeLimit(estimate.energy.needed, estimate.fees.energy_sun);
  // java-tron caps the energy a call may use, staked or delegated energy included, at
  // fee_limit / getEnergyFee (VMActuator.getAccountEnergyLimitWithFixRatio): under a lower
  // fee_limit the transfer runs out of energy, rented or not, and burns what it used for nothing.
  const least = estimate.energy.needed * estimate.fees.energy_sun;
  if (params.burn ? wanted > ceiling : least > ceiling) {
    const needs = params.burn ? wanted : least;
    throw new TrxRentError({
      code: 'SPENDING_CAP_EXCEEDED',
      message: params.burn
        ? `Burning for ${estimate.energy.needed} energy needs a fee_limit of ${wanted} SUN, above the ceiling of ${ceiling} SUN; nothing was sent (rent instead, or raise maxFeeLimitSun)`
        : `${estimate.energy.needed} energy needs a fee_limit of at least ${least} SUN even when rented (java-tron caps a call's energy at fee_limit), above the ceiling of ${ceiling} SUN; nothing was sent (raise maxFeeLimitSun)`,
      details: { field: 'maxFeeLimitSun', fee_limit_sun: needs, ceiling_sun: ceiling },
    });
  }
  // With the energy rented, fee_limit above the energy's cost only covers a shortfall: the ceiling is safe to apply.
  return Math.min(wanted, ceiling);
}

function orderFailure(error: TrxRentError): string {
  const order = (error.details?.order ?? {}) as { id?: unknown; status?: unknown; failure_reason?: unknown; failure_message?: unknown };
  const why = [order.failure_reason, order.failure_message].filter((v) => typeof v === 'string' && v).join(': ');
  return `order ${String(order.id)} ended ${String(order.status ?? 'FAILED')}${why ? `: ${why}` : ''}`;
}
