/**
 * How long a signed payment stays valid. Whatever the server's `maxTimeoutSeconds` (a hostile
 * one may ask for centuries), what the client signs is valid for at most the client's
 * `maxValiditySeconds`: every scheme client is handed requirements whose `maxTimeoutSeconds` is
 * min(server's, cap) (EIP-3009 `validBefore`, the PaymentPermit and GasFree deadlines and the
 * TRON transaction expiration all derive from it), and the signed payload is checked once more
 * before it is sent.
 * @module
 */
import type { CoreClientLike, SchemeClientLike } from './schemes/types.js';

/** Default cap on the validity of a signed payment, in seconds. */
export const DEFAULT_MAX_VALIDITY_SECONDS = 300;
/** The largest `maxValiditySeconds` a client accepts. */
export const MAX_VALIDITY_SECONDS = 3600;
/** Clock skew tolerated when checking a signed payload against the cap. */
const SKEW_SECONDS = 5;

/** Seconds the payment for an offer may stay valid: min(server's maxTimeoutSeconds, cap); the cap when the server gives 0. */
export function validityFor(maxTimeoutSeconds: number, capSeconds: number): number {
  return maxTimeoutSeconds > 0 ? Math.min(maxTimeoutSeconds, capSeconds) : capSeconds;
}

/**
 * `core` as seen by a payer registering its scheme clients: each scheme client is wrapped so
 * that it signs against requirements whose maxTimeoutSeconds is capped at `capSeconds`. The
 * requirements @x402/core echoes back to the server (`accepted`) stay the server's own.
 */
export function withCappedValidity(core: CoreClientLike, capSeconds: number): CoreClientLike {
  const wrap = (client: SchemeClientLike): SchemeClientLike =>
    new Proxy(client, {
      get(target, property) {
        if (property === 'createPaymentPayload') {
          return (
            version: number,
            requirements: Parameters<SchemeClientLike['createPaymentPayload']>[1],
            context?: Parameters<SchemeClientLike['createPaymentPayload']>[2],
          ) => target.createPaymentPayload(version, { ...requirements, maxTimeoutSeconds: validityFor(requirements.maxTimeoutSeconds, capSeconds) }, context);
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return {
    register: (network, client) => core.register(network, wrap(client)),
    registerV1: (network, client) => core.registerV1(network, wrap(client)),
  };
}

/**
 * The latest moment (Unix seconds) a signed payload says it is valid until, over every
 * validity field the supported schemes use; undefined when it names none.
 */
export function validUntil(payload: unknown): number | undefined {
  const p = (payload ?? {}) as {
    authorization?: { validBefore?: unknown };
    paymentPermit?: { meta?: { validBefore?: unknown } };
    gasfree?: { deadline?: unknown };
    signedTransaction?: { raw_data?: { expiration?: unknown } };
  };
  const ends = [
    seconds(p.authorization?.validBefore),
    seconds(p.paymentPermit?.meta?.validBefore),
    seconds(p.gasfree?.deadline),
    millisToSeconds(p.signedTransaction?.raw_data?.expiration),
  ].filter((v): v is number => v !== undefined);
  return ends.length ? Math.max(...ends) : undefined;
}

/** True when the payload stays valid no longer than `limitSeconds` from now (a little skew allowed). */
export function withinValidity(payload: unknown, limitSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const end = validUntil(payload);
  return end === undefined || end <= nowSeconds + limitSeconds + SKEW_SECONDS;
}

function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : typeof value === 'number' ? value : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

function millisToSeconds(value: unknown): number | undefined {
  const ms = seconds(value);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}
