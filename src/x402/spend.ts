/**
 * Spend safety, all of it in one object, `SpendControl`: every offer of a 402 challenge is
 * checked against the caller's controls before anything is signed (`offers.ts`: a network
 * known by its exact id, a known asset, allow-lists, maxPayment per call, the total budget), one
 * is chosen and its cost reserved; the `Payment` handle then carries the rest: @x402/core's own
 * spend control for that one offer, the price-plus-fee check for a fee learnt while signing, and
 * commit/release of the reservation.
 * @module
 */
import type { TokenInfo } from '../protocol/networks.js';
import { X402_LIMITS } from '../schemas/x402.js';
import { type Reservation, SpendingCap } from '../utils/spending-cap.js';
import { PaymentRefusedError, type RefusalReason } from './errors.js';
import {
  type AllowList,
  type Budget,
  type Offer,
  type PreferEntry,
  type SpendPolicy,
  attoToUsd,
  chooseOffer,
  evaluateOffers,
  refusal,
  refusedOffer,
  tokenToAtto,
  usdToAtto,
} from './offers.js';

export interface SpendOptions {
  /** Most a single call may cost, USD decimal string. Default the documented price. */
  maxPayment?: string | undefined;
  /** Most all calls together may cost, USD decimal string. Default: no total. */
  budget?: string | undefined;
  allow?: AllowList | undefined;
  prefer?: readonly PreferEntry[] | undefined;
  tokens?: readonly TokenInfo[] | undefined;
  /** Can some payer sign this offer? */
  canPay: (offer: Offer) => boolean;
}

/** The offer chosen for a payment, with its USD cost (amount plus any fee known up front). */
export type ChosenOffer = Offer & { costAtto: bigint; token: TokenInfo };

/**
 * Every spend check of the x402 client, in one object: which offers may be paid (known network,
 * known asset, allow-lists, maxPayment, budget), which one is, and how much of the budget it
 * holds. `authorize` picks and reserves; the `Payment` it returns does the rest.
 */
export class SpendControl {
  readonly #maxPaymentAtto: bigint;
  readonly #budget: Budget;
  readonly #policy: Omit<SpendPolicy, 'maxPaymentAtto'>;

  constructor(options: SpendOptions) {
    this.#maxPaymentAtto = usdToAtto(options.maxPayment ?? X402_LIMITS.FIXED_PRICE_USD, 'maxPayment');
    this.#budget = new SpendingCap({ total: options.budget === undefined ? undefined : usdToAtto(options.budget, 'budget') });
    this.#policy = { budget: this.#budget, allow: options.allow, prefer: options.prefer, tokens: options.tokens ?? [], canPay: options.canPay };
  }

  /** USD (atto) spent so far: settled, or sent and possibly settled. */
  get spentAtto(): bigint {
    return this.#budget.spent;
  }

  /** USD (atto) left in the budget, reservations in flight excluded; undefined without a budget. */
  get remainingAtto(): bigint | undefined {
    return this.#budget.limits.total === undefined ? undefined : this.#budget.remaining;
  }

  /** The per-call cap: the client's maxPayment, or a call's own (USD decimal string). */
  maxPaymentFor(override: string | undefined): bigint {
    return override === undefined ? this.#maxPaymentAtto : usdToAtto(override, 'maxPayment');
  }

  /**
   * Checks every offer, chooses one and reserves its cost in the budget. Throws
   * PaymentRefusedError (nothing signed) when no offer passes or the budget is taken.
   */
  authorize(x402Version: 1 | 2, accepts: readonly unknown[], maxPaymentAtto: bigint): Payment {
    const policy: SpendPolicy = { ...this.#policy, maxPaymentAtto };
    const evaluation = evaluateOffers(x402Version, accepts, policy);
    const offer = chooseOffer(evaluation, policy.prefer) as ChosenOffer | undefined;
    if (!offer) throw refusal(evaluation);
    const reservation = this.#budget.reserve(offer.costAtto);
    if (!reservation) throw new Payment(offer, undefined, maxPaymentAtto).refuse('over_budget', 'the budget was used up by calls in flight');
    return new Payment(offer, reservation, maxPaymentAtto);
  }
}

/**
 * One payment between choice and outcome. Its reservation is released only when nothing was
 * sent; once the signed payment has gone out it is committed, whatever the answer (a 402, a 5xx,
 * a dropped connection): the server may have settled it.
 */
export class Payment {
  readonly offer: ChosenOffer;
  /** Fee a scheme added while signing (GasFree maxFee), atomic units; 0 when none. */
  fee = 0n;
  readonly #reservation: Reservation | undefined;
  readonly #maxPaymentAtto: bigint;

  constructor(offer: ChosenOffer, reservation: Reservation | undefined, maxPaymentAtto: bigint) {
    this.offer = offer;
    this.#reservation = reservation;
    this.#maxPaymentAtto = maxPaymentAtto;
  }

  /** @x402/core's own spend control, on top of ours: only the chosen asset, for at most its amount. */
  libraryControls() {
    const { network, asset, amount } = this.offer;
    return {
      maxAmountPerPayment: false as const,
      allowedAssets: [{ network: network as `${string}:${string}`, asset, maxAmountPerPayment: amount.toString() }],
    };
  }

  /**
   * Price plus fee: a scheme learnt a fee on top of the amount while building the payment. The
   * total must fit maxPayment and the budget (the reservation grows), or PaymentRefusedError.
   */
  authorizeFee(requirements: { amount: string }, feeAtomic: bigint): void {
    const total = tokenToAtto(BigInt(requirements.amount) + feeAtomic, this.offer.token.decimals);
    const described = { amount: (this.offer.amount + feeAtomic).toString(), amount_usd: attoToUsd(total) };
    if (total > this.#maxPaymentAtto) {
      throw this.refuse('above_max_payment', `fee ${feeAtomic} atomic units on top of the amount`, {
        summary: `amount plus fee ${attoToUsd(total)} USD is above maxPayment ${attoToUsd(this.#maxPaymentAtto)} USD`,
        ...described,
      });
    }
    const extra = total - this.offer.costAtto;
    if (extra > 0n && !this.#reservation?.grow(extra)) {
      throw this.refuse('over_budget', 'fee does not fit the budget', {
        summary: `amount plus fee ${attoToUsd(total)} USD does not fit the remaining budget`,
        ...described,
      });
    }
    this.fee = feeAtomic;
  }

  /** The refusal of this offer, for `reason` (thrown by the caller). Nothing is signed after it. */
  refuse(reason: RefusalReason, message: string, override?: { summary?: string; amount?: string; amount_usd?: string }): PaymentRefusedError {
    const offer = {
      ...refusedOffer(this.offer, reason, message, this.offer.costAtto),
      ...(override?.amount ? { amount: override.amount, amount_usd: override.amount_usd } : {}),
    };
    return new PaymentRefusedError(`Payment refused before signing: ${override?.summary ?? message}`, [offer]);
  }

  /** Nothing was sent: the reservation goes back to the budget. */
  release(): void {
    this.#reservation?.release();
  }

  /** The signed payment was sent: it counts as spent from now on. */
  commit(): void {
    this.#reservation?.commit();
  }
}
