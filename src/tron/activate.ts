/**
 * Activating an address: a plain TRX TransferContract from a funding wallet, which makes the
 * recipient an account (java-tron `TransferActuator`: a transfer to a missing address creates it
 * and charges the sender `getCreateNewAccountFeeInSystemContract`, 1 TRX on mainnet, plus
 * `getCreateAccountFee`, 0.1 TRX, burnt when the sender's staked bandwidth cannot pay the
 * creation's bytes: `BandwidthProcessor.consumeForCreateNewAccount`; free bandwidth never pays
 * for it). Built and signed here (the key never leaves the process), broadcast to the node, and
 * landed by polling its receipt. This is the one function that moves TRX to activate, so one
 * money path can take it over.
 * @module
 */
import { TrxRentError, ValidationError } from '../errors/index.js';
import { pollUntil } from '../utils/clock.js';
import { transferStatus } from './identity.js';
import { address, checkAbort, positiveInt } from './inputs.js';
import type { TronNode } from './node.js';
import { isAccount } from './target.js';
import type { SignerInput } from '../protocol/signer.js';
import type { Activation, ActivationPlan, EngineDeps } from './types.js';

/** What a new account's activation sends when the caller names no amount: 1 SUN (any amount activates). */
export const DEFAULT_ACTIVATION_SUN = 1;

/** A signed activation exactly as it is broadcast (`/wallet/broadcasttransaction`, `visible: false`). */
export interface SignedActivation {
  /** sha256 of `raw_data_hex`. */
  txID: string;
  /** The raw data as JSON (tronweb's shape). */
  raw_data: unknown;
  /** The raw data's protobuf bytes, hex: what the txID hashes and the node decodes. */
  raw_data_hex: string;
  /** The funding wallet's signature (65 bytes hex). */
  signature: string[];
}

/** What `planActivation` and `activateAccount` take. */
export interface ActivateParams {
  /** The address to activate (base58). */
  address: string;
  /**
   * The funding wallet that sends the TRX and pays the account-creation fee: `{ privateKey }`, a
   * TronWeb instance, or a `Signer` (a KMS key, a function) of the wallet's owner key.
   */
  signer: SignerInput;
  /** TRX to send, in SUN. @default 1 */
  amountSun?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Give up waiting for the receipt at this instant of the client's clock. @default now + 60 s */
  deadline?: number | undefined;
  /**
   * Told of the signed activation before it is broadcast, its bytes included (a journal writes it
   * down, so a resume broadcasts and lands this transaction instead of signing a second one while
   * it may still land).
   */
  onSigned?: ((tx: { tx_id: string; expiration: number; signed: SignedActivation }) => Promise<void> | void) | undefined;
}

/**
 * The funding wallet as the one signer interface (`protocol/signer.ts`). Its owner key signs: the
 * transfer names no other permission (a multi-signature funding wallet is not supported here).
 */
async function funding(input: SignerInput) {
  const { toSigner } = await import('../protocol/signer.js');
  const signer = toSigner(input, 'activate.signer');
  if ((signer.permissionId ?? 0) !== 0) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: 'activate.signer: the funding wallet signs with its owner key (permission 0); nothing was sent',
      details: { field: 'activate.signer' },
    });
  }
  return signer;
}

/** The chain's account-creation fees (getchainparameters), in SUN: the system contract's and the bandwidth burn's. */
async function creationFees(node: TronNode, signal?: AbortSignal): Promise<{ create_sun: number; bandwidth_sun: number }> {
  const params = await node.getChainParameters({ signal });
  const create = params.get('getCreateNewAccountFeeInSystemContract');
  const bandwidth = params.get('getCreateAccountFee');
  if (create === undefined || bandwidth === undefined) {
    throw new TrxRentError({
      code: 'NODE_ERROR',
      message: 'getchainparameters reports no getCreateNewAccountFeeInSystemContract/getCreateAccountFee; nothing was sent',
    });
  }
  return { create_sun: create, bandwidth_sun: bandwidth };
}

/**
 * What activating `address` from `signer` would send and cost, checked against the funding
 * wallet: it must be an account (SENDER_NOT_ACTIVATED) holding the amount plus the most the
 * creation can cost (INSUFFICIENT_TRX). Sends nothing.
 */
export async function planActivation(deps: Pick<EngineDeps, 'node'>, params: ActivateParams): Promise<ActivationPlan> {
  const target = address(params?.address, 'address');
  const from = (await funding(params.signer)).address;
  const amount = params.amountSun === undefined ? DEFAULT_ACTIVATION_SUN : positiveInt(params.amountSun, 'activate.amountSun');
  const { node } = deps;
  const signal = params.signal;
  const [funder, fees] = await Promise.all([node.getAccount(from, { signal }), creationFees(node, signal)]);
  if (!isAccount(funder)) {
    throw new TrxRentError({
      code: 'SENDER_NOT_ACTIVATED',
      message: `The funding wallet ${from} does not exist on chain (never activated): it cannot activate ${target}; nothing was ordered or sent`,
      details: { field: 'activate.signer', address: from },
    });
  }
  // The most it can cost: the creation fee, and the bandwidth burn when staked bandwidth cannot pay it.
  const fee = fees.create_sun + fees.bandwidth_sun;
  if (funder.balance < amount + fee) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TRX',
      message: `The funding wallet ${from} holds ${funder.balance} SUN; activating ${target} needs ${amount} SUN plus up to ${fee} SUN in fees; nothing was ordered or sent`,
      details: { field: 'activate.signer', balance_sun: funder.balance, needed_sun: amount + fee },
    });
  }
  return { address: target, from, amount_sun: amount, fee_sun: fee, total_sun: amount + fee };
}

/**
 * Activate `address`: send it TRX from `signer` (a TransferContract built, signed and verified
 * here), broadcast it to the node, and wait until its receipt is in a block and the address is an
 * account. An address that already is one is left alone (undefined). Errors: the checks of
 * {@link planActivation}; TRANSFER_FAILED when the node refuses the transaction (its code and
 * text) or it fails or expires in no block (nothing was sent); TIMEOUT when no receipt came by
 * `deadline` (its outcome unknown: `details.tx_id`).
 */
export async function activateAccount(deps: Pick<EngineDeps, 'node' | 'http'>, params: ActivateParams): Promise<Activation | undefined> {
  const { node } = deps;
  const clock = deps.http.clock;
  const signal = params.signal;
  if (isAccount(await node.getAccount(address(params?.address, 'address'), { signal }))) return undefined;
  const plan = await planActivation(deps, params);
  const [tx, { signTransactionWith }, signer] = await Promise.all([
    import('../protocol/tron-transaction.js'),
    import('../protocol/signer.js'),
    funding(params.signer),
  ]);
  checkAbort(signal);
  const block = await node.getNowBlock({ signal });
  const localNow = clock.now();
  const unsigned = tx.buildTrxTransfer({
    from: plan.from,
    to: plan.address,
    amountSun: BigInt(plan.amount_sun),
    refBlock: { number: block.number, hash: block.id },
    now: localNow,
    // 60 s from the chain's time, as java-tron's own builder does.
    expirationMs: (block.timestamp ?? localNow) + 60_000 - localNow,
  });
  const signed = await signTransactionWith(signer, unsigned);
  const check = tx.verifySignedTransaction(signed);
  const d = check.ok ? check.decoded : undefined;
  if (!d || d.txID !== unsigned.txID || d.ownerAddress !== plan.from || d.toAddress !== plan.address || d.amountSun !== BigInt(plan.amount_sun)) {
    throw new TrxRentError({
      code: 'INVALID_TRANSACTION',
      message: `The signed activation is not the transfer built${check.ok ? '' : ` (${check.reason})`}; nothing was sent`,
    });
  }
  const txId = d.txID.toLowerCase();
  checkAbort(signal);
  const bytes: SignedActivation = { txID: signed.txID, raw_data: signed.raw_data, raw_data_hex: signed.raw_data_hex, signature: signed.signature };
  await params.onSigned?.({ tx_id: txId, expiration: d.expiration, signed: bytes });
  const answer = await node.broadcastTransaction({ ...bytes, visible: false }, { signal });
  if (answer.result !== true && !/DUP_TRANSACTION/i.test(String(answer.code))) {
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `The node refused the activation of ${plan.address} from ${plan.from}: ${String(answer.code ?? 'refused')}${answer.message ? ` (${answer.message})` : ''}; nothing was sent or ordered`,
      details: { stage: 'activation', tx_id: txId, node_code: answer.code, node_message: answer.message },
    });
  }
  const deadline = params.deadline ?? clock.now() + 60_000;
  const status = await pollUntil(
    async () => {
      const now = await transferStatus(node, txId, d.expiration, { signal });
      return now.state === 'pending' ? { done: false, last: now } : { done: true, value: now };
    },
    {
      timeoutMs: Math.max(1, deadline - clock.now()),
      clock,
      signal,
      intervalMs: 500,
      maxIntervalMs: 3_000,
      factor: 2,
      timeoutMessage: () => `The activation of ${plan.address} (tx ${txId}) is in no block yet; its outcome is unknown: check it with transfers.status`,
    },
  ).catch((error: unknown) => {
    if (error instanceof TrxRentError)
      (error as { details: unknown }).details = { ...error.details, stage: 'activation', tx_id: txId, expiration: d.expiration, transfer_sent: 'unknown' };
    throw error;
  });
  if (status.state !== 'confirmed') {
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `The activation of ${plan.address} (tx ${txId}) ${status.state === 'expired' ? 'expired in no block: nothing was sent' : `failed on chain (${status.result ?? 'FAILED'})`}; nothing was ordered`,
      details: { stage: 'activation', tx_id: txId, state: status.state, result: status.result },
    });
  }
  return { ...plan, tx_id: txId, block: status.block ?? 0, fee_sun: status.receipt?.fee ?? plan.fee_sun };
}
