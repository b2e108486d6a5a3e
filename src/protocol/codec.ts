/**
 * The x402 HTTP header codec: standard base64 of UTF-8 JSON (what @x402/core and x402@1 use),
 * plus canonical JSON for comparing requirement objects. Dependency-free; the mock uses it too.
 * @module
 */

/** The x402 HTTP header names. Every value is base64 JSON (see {@link encodeBase64Json}). */
export const HEADERS = {
  /** v2 challenge on a 402 response (a `PaymentRequired`). */
  PAYMENT_REQUIRED: 'PAYMENT-REQUIRED',
  /** v2 payment on the paid retry (a `PaymentPayload`). */
  PAYMENT_SIGNATURE: 'PAYMENT-SIGNATURE',
  /** v2 settlement result on the paid response (a `SettlementResponse`). */
  PAYMENT_RESPONSE: 'PAYMENT-RESPONSE',
  /** v1 payment on the paid retry; the v1 challenge travels in the 402's JSON body. */
  X_PAYMENT: 'X-PAYMENT',
  /** v1 settlement result on the paid response. */
  X_PAYMENT_RESPONSE: 'X-PAYMENT-RESPONSE',
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A header value: standard-alphabet base64 (with padding) of the UTF-8 JSON of `value`. */
export function encodeBase64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Decode a base64 JSON header; throws on anything that is not base64 of JSON. */
export function decodeBase64Json(value: string): unknown {
  const text = value.trim();
  if (!text || !BASE64.test(text)) throw new Error('not base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}
