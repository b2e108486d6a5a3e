import { TrxRentError } from '../errors/index.js';
import { nameClass } from '../errors/name.js';

/** Why one offer of a 402 challenge was not paid. */
export type RefusalReason =
  | 'above_max_payment'
  | 'over_budget'
  | 'unknown_asset'
  | 'asset_not_allowed'
  | 'pay_to_not_allowed'
  | 'network_not_allowed'
  | 'no_payer'
  | 'invalid_offer'
  | 'unknown_network'
  | 'validity_too_long'
  | 'declined';

/** One offer of a 402 challenge that the client refused to pay, and why. */
export interface RefusedOffer {
  /** x402 scheme (`exact`, `exact_permit`, `exact_gasfree`). */
  scheme: string;
  /** Network as the server named it (`eip155:8453`, `tron:mainnet`…). */
  network: string;
  /** Token contract address. */
  asset: string;
  /** Atomic units, including any fee the scheme adds on top (permit fee, GasFree maxFee). */
  amount: string;
  /** The same in USD, when the asset is known. */
  amount_usd?: string | undefined;
  /** Recipient the server asked to pay. */
  payTo: string;
  /** Why it was refused. */
  reason: RefusalReason;
  /** The reason in words. */
  message: string;
}

/**
 * The client refused to pay: no offer of the challenge fits the spend controls (maxPayment,
 * budget, allow-lists, known assets) or the caller declined. Thrown before anything is signed.
 */
export class PaymentRefusedError extends TrxRentError {
  static {
    nameClass(this, 'PaymentRefusedError');
  }
  readonly offers: RefusedOffer[];
  constructor(message: string, offers: RefusedOffer[], extra?: Record<string, unknown>) {
    super({ code: 'PAYMENT_REFUSED', message, status: 402, details: { offers, ...extra } });
    this.offers = offers;
  }
}

/**
 * A payment was made and the server still answered 402 (or could not settle it). `reason` is the
 * server's error code (e.g. `invalid_exact_evm_payload_signature`). The client does not retry.
 */
export class PaymentFailedError extends TrxRentError {
  static {
    nameClass(this, 'PaymentFailedError');
  }
  readonly reason: string;
  constructor(init: { reason: string; message?: string; status?: number; headers?: Headers; details?: Record<string, unknown> }) {
    super({
      code: 'PAYMENT_FAILED',
      message: init.message ?? `The server rejected the payment: ${init.reason}`,
      status: init.status ?? 402,
      headers: init.headers,
      details: { reason: init.reason, ...init.details },
    });
    this.reason = init.reason;
  }
}

/** The payer could not produce a payment (signer error, relayer unreachable, …). Nothing was sent. */
export class PaymentSigningError extends TrxRentError {
  static {
    nameClass(this, 'PaymentSigningError');
  }
  constructor(message: string, cause?: unknown) {
    super({ code: 'PAYMENT_SIGNING_FAILED', message, cause });
  }
}

export { MissingPeerDependencyError, isTrxRentError } from '../errors/index.js';
