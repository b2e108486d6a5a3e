/**
 * `transfers.send`: one TRC-20 transfer, sent once. Estimate, rent the deficit (orders keyed
 * `<key>:energy`), then hand the transfer to the one transfer protocol (`transfer.ts`: signed
 * once, stored with the idempotency key before the broadcast leaves, landed). A retry with the
 * same key finds the stored transaction and lands it; only once it is known dead may a new one
 * be signed. Every error after a step that may have
 * had an effect says where it stopped and what is known (`details`: stage, transfer_sent,
 * tx_id, expiration, order_id, idempotency_key).
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { Transactions } from '../resources/transactions.js';
import { decimalToAtomic } from '../utils/units.js';
import { startDeadline, type Deadline } from './deadline.js';
import type { Confirmation, EngineDeps, EnsureResult, SendTransferParams, SendTronWeb, SentTransfer } from './types.js';
import { DEFAULT_TIMEOUT_MS, address, checkAbort, invalid, optionalSun, positiveInt, resolveToken } from './inputs.js';
import { ensureResources } from './ensure.js';
import { estimateTransfer } from './estimate.js';
import { memoryTransferStore } from './transfer-store.js';
import {
  type LandingDeps,
  SEND_EXPIRATION_MS,
  type TransferEvent,
  type TransferIntent,
  type TransferWho,
  feeLimitFor,
  isPermissionSigners,
  landEarlier,
  transferOnce,
} from './transfer.js';
import { multiSignFeeSun } from './transfer-sign.js';
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
  const { transferSigners } = await import('./account-signers.js');
  const who = transferSigners(params ?? {});
  const timeoutMs = params.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : positiveInt(params.timeoutMs, 'timeoutMs');
  const key = checkKey(params.idempotencyKey) ?? `send-${globalThis.crypto.randomUUID()}`;
  optionalSun(params.maxCostSun, 'maxCostSun');
  optionalSun(params.feeLimitSun, 'feeLimitSun');
  optionalSun(params.maxFeeLimitSun, 'maxFeeLimitSun');
  const deadline = startDeadline(deps.http.clock, timeoutMs, params.signal);
  const known: Known = { stage: undefined, left: false, idempotency_key: key };
  try {
    return await SEND_LOCKS.run(who.from, () => sendLocked(deps, params, who, key, deadline, known), deadline.signal);
  } catch (error) {
    throw finish(error, known, deadline, timeoutMs);
  }
}

type Who = import('../protocol/signer.js').ResolvedSigner<SendTronWeb> | import('./account-signers.js').UncheckedSigners;

async function sendLocked(deps: EngineDeps, params: SendTransferParams, who: Who, key: string, deadline: Deadline, known: Known): Promise<SentTransfer> {
  const { onProgress } = params;
  const signal = deadline.signal;
  const confirmed = confirmationOf(params);
  const store = params.transferStore ?? deps.store ?? memoryTransferStore();
  const transactions = new Transactions(deps.http);
  const protocol: LandingDeps = {
    node: deps.node,
    clock: deps.http.clock,
    store,
    broadcast: (signed) => transactions.broadcast({ signed_tx: signed as never }, { timeoutMs: deadline.budget() }),
  };
  const onEvent = (e: TransferEvent) => {
    if (e.step === 'resumed') Object.assign(known, { stage: 'receipt', left: true, tx_id: e.tx_id, expiration: e.expiration });
    else if (e.step === 'signed') Object.assign(known, { stage: 'sign', tx_id: e.tx_id, expiration: e.expiration });
    else if (e.step === 'broadcasting') Object.assign(known, { stage: 'broadcast', left: true });
    else if (e.step === 'broadcast') known.stage = 'receipt';
    else if (e.step === 'expired') Object.assign(known, { stage: undefined, left: false, tx_id: undefined, expiration: undefined });
    if (e.step === 'resumed' || e.step === 'signed' || e.step === 'broadcasting') onProgress?.({ step: e.step, tx_id: e.tx_id, expiration: e.expiration });
    else if (e.step === 'broadcast') onProgress?.({ step: 'broadcast', tx_id: e.tx_id });
  };
  const token = await resolveToken(deps.node, params.token, who.from, signal);
  const atomic = decimalToAtomic(params.amount, token.decimals, 'amount').toString();
  const to = address(params.to, 'to');
  const intent: TransferIntent = { key, from: who.from, to, contract: token.address, amount_atomic: atomic };
  const base = { deadline: deadline.at, signal, onEvent } as const;

  // A transfer this key signed before: land it, never sign anew while it may still land.
  const landed = await landEarlier(protocol, intent, base);
  if (landed) {
    if (landed.status.state !== 'expired')
      return report(deps, params, await solidify(deps, landed.status, confirmed, deadline), landed.record, token, null, null, known, true);
    // Known dead (the record is forgotten): only now may this key sign a new transaction.
  }

  // Sized as it will be sent: the permission id and every signer's signature count as bandwidth.
  const shape = 'signers' in who ? { signatures: who.signers.length, permissionId: who.permissionId } : {};
  const estimate = await estimateTransfer(
    deps,
    { from: who.from, to: params.to, token: params.token, amount: params.amount, duration: params.duration },
    { signal, ...shape },
  );
  onProgress?.({ step: 'estimated', estimate });
  // Refuse what cannot succeed before anything is rented (the estimate has checked the tokens).
  const account = await deps.node.getAccount(who.from, { signal, timeoutMs: deadline.budget() });
  // An account's permission: its signers must be able to authorise the transfer (PERMISSION_DENIED otherwise).
  const { isUnchecked, refuseUnauthorised } = await import('./account-signers.js');
  const signer: TransferWho = isUnchecked(who) ? refuseUnauthorised(account, who) : who;
  // More than one signature burns the chain's getMultiSignFee (java-tron Manager.consumeMultiSignFee).
  const multiSignSun = isPermissionSigners(signer) && signer.signers.length > 1 ? multiSignFeeSun(signer, await deps.node.getChainParameters({ signal })) : 0;
  const mustBurn = (params.burn ? estimate.burn.total_sun : estimate.burn.bandwidth_sun) + multiSignSun;
  if (account.balance < mustBurn) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TRX',
      message: `${who.from} holds ${account.balance} SUN but the transfer would burn ${mustBurn} SUN${multiSignSun ? ` (${multiSignSun} SUN of it the multi-signature fee)` : ''}; nothing was ordered or sent`,
      details: { balance_sun: account.balance, needed_sun: mustBurn },
    });
  }
  const fee = {
    energy: estimate.energy.needed,
    energyFeeSun: estimate.fees.energy_sun,
    feeLimitSun: params.feeLimitSun,
    maxFeeLimitSun: params.maxFeeLimitSun,
    burn: params.burn,
  };
  // A fee_limit ceiling the transfer cannot run under is refused before anything is rented (the chain's getMaxFeeLimit is checked again at signing).
  feeLimitFor(fee, undefined);
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
        {
          orderKeys: { energy: `${key}:energy`, bandwidth: `${key}:bw` },
          deadline,
          // Another process with this key may sign while this one waits for the delegation, and
          // its transaction use the delegation up: once the key has a record, stop waiting and land it.
          needless: async () => (await store.get(key)) !== undefined,
        },
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
  const sent = await transferOnce({ ...protocol, signer }, { ...intent, to: estimate.to }, { ...base, fee, expirationMs: SEND_EXPIRATION_MS });
  if (sent.status.state === 'expired') {
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `Transfer ${sent.record.tx_id} expired without landing (the solidified block passed its expiration): it was not sent; retrying with the same idempotency key signs a new one`,
      details: { state: 'expired' },
    });
  }
  return report(
    deps,
    params,
    await solidify(deps, sent.status, confirmed, deadline),
    sent.record,
    estimate.token,
    sent.resumed ? null : estimate,
    ensured,
    known,
    sent.resumed,
  );
}

/** `confirmation`, or `confirm` given as a level; anything else is a VALIDATION_ERROR naming the field. */
function confirmationOf(params: SendTransferParams): Confirmation {
  const level = params.confirmation ?? (typeof params.confirm === 'string' ? params.confirm : undefined) ?? 'included';
  if (level !== 'included' && level !== 'solidified')
    throw invalid(params.confirmation !== undefined ? 'confirmation' : 'confirm', `must be 'included' or 'solidified', not ${String(level)}`);
  return level;
}

function orderFailure(error: TrxRentError): string {
  const order = (error.details?.order ?? {}) as { id?: unknown; status?: unknown; failure_reason?: unknown; failure_message?: unknown };
  const why = [order.failure_reason, order.failure_message].filter((v) => typeof v === 'string' && v).join(': ');
  return `order ${String(order.id)} ended ${String(order.status ?? 'FAILED')}${why ? `: ${why}` : ''}`;
}
