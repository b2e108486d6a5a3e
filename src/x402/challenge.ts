/**
 * Reading a 402 exchange: the challenge (PAYMENT-REQUIRED header for v2, else a v1 JSON body),
 * the error a fresh challenge names, the settlement header of the paid answer, and the receipt
 * made from it. Nothing here sends or signs.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { INVALID_JSON, parseJson, responseError } from '../http/response.js';
import { RETRYABLE_STATUSES } from '../http/retry.js';
import type { Exchange } from '../http/transport.js';
import { HEADERS, decodeBase64Json } from '../protocol/codec.js';
import { normaliseNetwork } from '../protocol/networks.js';
import { PaymentRequiredV1, PaymentRequiredV2, SettlementResponse } from '../schemas/x402.js';
import { attoToUsd, tokenToAtto } from './offers.js';
import type { Payer } from './payers.js';
import type { Payment } from './spend.js';
import type { PaymentReceipt } from './types.js';

/** The unpaid answer as is (a 402 goes on to payment), except a retryable status: its error, for the loop to retry. */
export function unpaidAnswer(exchange: Exchange): Exchange {
  if (RETRYABLE_STATUSES.has(exchange.response.status)) throw responseError(exchange.response, parseJson(exchange.text));
  return exchange;
}

/** The receipt of a payment the server accepted, from its settlement header (or the offer). */
export function receiptOf(payment: Payment, payer: Payer, settlement: SettlementResponse | undefined): PaymentReceipt {
  const { offer } = payment;
  const amount = settlement?.amount && /^\d+$/.test(settlement.amount) ? BigInt(settlement.amount) : offer.amount;
  const fee = payment.fee > 0n ? payment.fee : offer.fee;
  const network = settlement?.network || offer.network;
  return {
    x402Version: offer.x402Version,
    scheme: offer.scheme,
    network,
    network_id: normaliseNetwork(network),
    asset: offer.asset,
    symbol: offer.token.symbol,
    decimals: offer.token.decimals,
    amount: amount.toString(),
    fee: fee.toString(),
    amount_usd: attoToUsd(tokenToAtto(amount + fee, offer.token.decimals)),
    payTo: offer.payTo,
    payer: settlement?.payer || payer.address,
    transaction: settlement?.transaction || null,
  };
}

/** A 402 challenge, read. */
export interface Challenge {
  x402Version: 1 | 2;
  /** The offers, exactly as received. */
  accepts: unknown[];
  /** The challenge object as received, handed to @x402/core to build the payment from. */
  paymentRequired: Record<string, unknown>;
}

/** The 402 challenge as @x402/core reads it: PAYMENT-REQUIRED header (v2), else a v1 JSON body. */
export function readChallenge({ response, text }: Exchange): Challenge {
  const header = response.headers.get(HEADERS.PAYMENT_REQUIRED);
  const invalid = (why: string) =>
    new TrxRentError({
      code: 'INVALID_PAYMENT_CHALLENGE',
      message: `The 402 response carries no usable x402 challenge: ${why}`,
      status: 402,
      headers: response.headers,
    });
  if (header) {
    let decoded: unknown;
    try {
      decoded = decodeBase64Json(header);
    } catch {
      throw invalid('PAYMENT-REQUIRED is not base64 JSON');
    }
    const parsed = PaymentRequiredV2.safeParse(decoded);
    if (!parsed.success) throw invalid(`PAYMENT-REQUIRED: ${parsed.error.issues[0]?.message}`);
    const raw = decoded as Record<string, unknown>;
    return { x402Version: 2, accepts: raw.accepts as unknown[], paymentRequired: raw };
  }
  const body = parseJson(text);
  if (body === INVALID_JSON || body === undefined) throw invalid('no PAYMENT-REQUIRED header and no JSON body');
  const parsed = PaymentRequiredV1.safeParse(body);
  if (!parsed.success) throw invalid('no PAYMENT-REQUIRED header and the body is not a v1 challenge');
  const raw = body as Record<string, unknown>;
  return { x402Version: 1, accepts: raw.accepts as unknown[], paymentRequired: raw };
}

/** The `error` a 402's PAYMENT-REQUIRED header names, when it decodes and has one. */
export function readChallengeError(headers: Headers): string | undefined {
  const header = headers.get(HEADERS.PAYMENT_REQUIRED);
  if (!header) return undefined;
  try {
    const error = (decodeBase64Json(header) as { error?: unknown })?.error;
    return typeof error === 'string' && error ? error : undefined;
  } catch {
    return undefined;
  }
}

/** The settlement of a paid answer (PAYMENT-RESPONSE, else X-PAYMENT-RESPONSE), when it decodes. */
export function readSettlement(headers: Headers): SettlementResponse | undefined {
  const header = headers.get(HEADERS.PAYMENT_RESPONSE) ?? headers.get(HEADERS.X_PAYMENT_RESPONSE);
  if (!header) return undefined;
  try {
    const parsed = SettlementResponse.safeParse(decodeBase64Json(header));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
