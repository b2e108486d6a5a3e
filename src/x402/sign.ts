/**
 * Signing the chosen offer: @x402/core builds the payment payload with only that offer's payer
 * registered, a selector and policy that admit that offer alone, its own spend control capped at
 * the offer's amount, and every validity capped; the signed payload is checked once more.
 * @module
 */
import { MissingPeerDependencyError, isTrxRentError } from '../errors/index.js';
import { fetchJson } from '../http/response.js';
import type { Transport } from '../http/transport.js';
import { sameJson } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import { loadX402Core } from '../peers/index.js';
import type { Challenge } from './challenge.js';
import { PaymentSigningError } from './errors.js';
import type { CoreClientLike, Payer, PaymentContext } from './payers.js';
import type { Payment } from './spend.js';
import { validityFor, withCappedValidity, withinValidity } from './validity.js';

/** What signing needs of the client and the call: the transport (a scheme's own requests), their deadline and signal, the validity cap. */
export interface SignContext {
  transport: Transport;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  maxValiditySeconds: number;
}

/**
 * The signed payment payload for the chosen offer, built by @x402/core with only the payer of
 * that offer registered (its peers load now, not before), a selector and policy that admit
 * that offer alone, the library's spend control capped at its amount, and every validity
 * capped at maxValiditySeconds.
 */
export async function signPayment(challenge: Challenge, payment: Payment, payer: Payer, ctx: SignContext): Promise<Record<string, unknown>> {
  const { offer } = payment;
  const { x402Client } = await loadX402Core();
  const admitted = (accepts: Array<Record<string, unknown>>) => accepts.filter((a) => sameJson(a, offer.raw));
  const core = new x402Client((_version, accepts) => {
    const [match] = admitted(accepts as Array<Record<string, unknown>>);
    if (!match) throw new Error('the chosen offer is no longer in the challenge');
    return match as never;
  });
  core.registerPolicy((_version, accepts) => admitted(accepts as Array<Record<string, unknown>>) as never);
  core.setSpendControls(payment.libraryControls());
  const seconds = validityFor(offer.maxTimeoutSeconds, ctx.maxValiditySeconds);
  const context: PaymentContext = {
    authorizeFee: (requirements, feeAtomic) => payment.authorizeFee(requirements, feeAtomic),
    requestJson: (url, init) => fetchJson(ctx.transport, url, { ...init, timeoutMs: ctx.timeoutMs, signal: ctx.signal }),
    refuse: (message) => payment.refuse('validity_too_long', message),
  };
  await payer.register(withCappedValidity(core as unknown as CoreClientLike, ctx.maxValiditySeconds), context);
  let signed: { payload?: unknown };
  try {
    signed = (await core.createPaymentPayload(challenge.paymentRequired as never)) as { payload?: unknown };
  } catch (error) {
    if (isTrxRentError(error) && (error.code === 'PAYMENT_REFUSED' || error instanceof MissingPeerDependencyError)) throw error;
    throw new PaymentSigningError(`Could not create the payment: ${redactText(String((error as Error)?.message ?? error))}`, error);
  }
  if (!withinValidity(signed.payload, seconds)) {
    throw payment.refuse(
      'validity_too_long',
      `the signed payment would stay valid for more than ${seconds} s (maxValiditySeconds ${ctx.maxValiditySeconds}, offer ${offer.maxTimeoutSeconds})`,
    );
  }
  return signed as Record<string, unknown>;
}
