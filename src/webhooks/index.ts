/**
 * `trx-rent/webhooks`: verify and sign webhook deliveries. No runtime dependencies: only Web
 * Crypto (`crypto.subtle`) and TextEncoder, so it runs unchanged in Node, browsers, Deno, Bun
 * and edge workers.
 *
 * The service signs `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>` keyed
 * with the webhook's secret. Nothing else is signed, so replay protection can only use the
 * body's own `timestamp` (which the signature covers).
 * @module
 */
import type { DepositReceivedData, Order, Withdrawal } from '../schemas/index.js';

/**
 * The request body exactly as received, before any JSON parsing: a string (hashed as UTF-8),
 * bytes or an ArrayBuffer.
 */
export type RawBody = string | Uint8Array | ArrayBuffer;

/**
 * Why a delivery was rejected: `missing_header` (no signature), `bad_format` (not
 * `sha256=<64 hex>`), `mismatch` (wrong secret, or a changed or re-serialised body), `too_old`
 * (`timestamp` older than the tolerance), `invalid_timestamp` (none, or too far in the future),
 * `invalid_payload` (not a JSON `{ event, data, timestamp }` object).
 */
export type WebhookSignatureFailure = 'missing_header' | 'bad_format' | 'mismatch' | 'too_old' | 'invalid_timestamp' | 'invalid_payload';

/**
 * Thrown by {@link constructWebhookEvent} when a delivery must not be trusted; `reason` says
 * why. Do not process such a delivery (the example receiver answers 400).
 */
export class WebhookSignatureError extends Error {
  static {
    // Written out so a minified bundle keeps it (see src/errors/name.ts; this file imports nothing).
    Object.defineProperty(this, 'name', { value: 'WebhookSignatureError', configurable: true });
  }
  /** Always `WEBHOOK_SIGNATURE_INVALID`. */
  readonly code = 'WEBHOOK_SIGNATURE_INVALID';
  constructor(
    /** What failed; see {@link WebhookSignatureFailure}. */
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Shape every delivery body shares: `{ event, data, timestamp }`. */
export interface EventBase<E extends string, D> {
  /** The event type, e.g. `order.filled`. */
  event: E;
  /** The event's subject. */
  data: D;
  /** Unix time (seconds) the service stamped on the delivery. */
  timestamp: number;
}
/** `order.filled`: an order was delivered; `data` is the order as the API returns it. */
export type OrderFilledEvent = EventBase<'order.filled', Order>;
/** `order.failed`: an order failed; `data` is the order as the API returns it. */
export type OrderFailedEvent = EventBase<'order.failed', Order>;
/**
 * `deposit.received`: a deposit was credited; `data` is the credited transfer. The live
 * service's `deposit.confirmed` arrives under this name.
 */
export type DepositReceivedEvent = EventBase<'deposit.received', DepositReceivedData>;
/** `withdrawal.completed`: a withdrawal was paid out; `data` is the withdrawal plus its `tx_id`. */
export type WithdrawalCompletedEvent = EventBase<'withdrawal.completed', Withdrawal & { tx_id?: string }>;
/**
 * The events this version types, as {@link constructWebhookEvent} returns them: a `switch` on
 * `event` narrows `data`, no helper needed. An event type newer than this version is still
 * delivered as sent (its own `event` name and `data`, nothing dropped) and reaches the switch's
 * `default:` branch; {@link isKnownEvent} tells the two apart at run time.
 */
export type KnownWebhookEvent = OrderFilledEvent | OrderFailedEvent | DepositReceivedEvent | WithdrawalCompletedEvent;
/** An event type this version does not know yet; its body is kept as sent. */
export type UnknownWebhookEvent = EventBase<string, Record<string, unknown>>;
/**
 * Any delivery, known or not: the type for code that stores or forwards events without
 * switching on them. A switch narrows {@link KnownWebhookEvent}, which
 * {@link constructWebhookEvent} returns.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** The event types {@link KnownWebhookEvent} covers (the spec's four). */
export const KNOWN_WEBHOOK_EVENTS = ['order.filled', 'order.failed', 'deposit.received', 'withdrawal.completed'] as const;
// The live service's README names the deposit event `deposit.confirmed`; it is the same event.
const EVENT_ALIASES: Record<string, KnownWebhookEvent['event']> = { 'deposit.confirmed': 'deposit.received' };

/**
 * Whether this version types the event: false for an event type newer than this version, which
 * {@link constructWebhookEvent} still returns as sent.
 */
export function isKnownEvent(event: { readonly event: string }): event is KnownWebhookEvent {
  return (KNOWN_WEBHOOK_EVENTS as readonly string[]).includes(event.event);
}

/** Options of {@link constructWebhookEvent}. */
export interface ConstructEventOptions {
  /**
   * Maximum age of the body's `timestamp`, in seconds; also how far it may lie in the future.
   * A positive, finite number (anything else throws a RangeError rather than weakening the check).
   * @default 300
   */
  toleranceSec?: number;
  /**
   * Skip the replay check (e.g. to verify a delivery saved long ago). The signature is still checked.
   * @default false
   */
  skipTimestampCheck?: boolean;
  /**
   * Current time, in ms since the epoch, that the body's `timestamp` is checked against (for tests).
   * @default Date.now()
   */
  now?: number;
}

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

/*
 * Fast path: where the runtime has Node's crypto module as a builtin (Node >= 20.16, Bun, Deno),
 * HMAC synchronously with it; Web Crypto's async sign costs a thread-pool hop per call. Looked up
 * through process.getBuiltinModule, so nothing is imported and browsers/edge use Web Crypto.
 */
interface NodeHmac {
  createHmac(algorithm: 'sha256', key: string): { update(data: Uint8Array | string, encoding?: 'utf8'): { digest(encoding: 'hex'): string } };
}
const nodeCrypto: NodeHmac | undefined = (() => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeHmac | undefined;
    return typeof mod?.createHmac === 'function' ? mod : undefined;
  } catch {
    return undefined;
  }
})();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    if (keyCache.size >= 32) keyCache.delete(keyCache.keys().next().value as string);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keyCache.set(secret, key);
  }
  return key;
}

function bytesOf(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The Node/Bun/Deno fast path: synchronous, no promise per hash. Undefined where only Web Crypto exists. */
function digestHexSync(body: RawBody, secret: string): string | undefined {
  if (!nodeCrypto) return undefined;
  // A string goes to the hash as is (UTF-8 in native code): copying it through TextEncoder first
  // cost 40-50% of a verification.
  const data = typeof body === 'string' ? body : body instanceof Uint8Array ? body : new Uint8Array(body);
  return nodeCrypto.createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

async function digestHex(body: RawBody, secret: string): Promise<string> {
  const fast = digestHexSync(body, secret);
  if (fast !== undefined) return fast;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), bytesOf(body) as BufferSource));
  let hex = '';
  for (const b of mac) hex += HEX[b];
  return hex;
}

/** Header value for a body: `sha256=<hex>`. For tests, the mock server and `trx-rent webhooks`. */
export async function signWebhookPayload(rawBody: RawBody, secret: string): Promise<string> {
  if (typeof secret !== 'string' || secret === '') throw new TypeError('signWebhookPayload needs a non-empty secret');
  return `sha256=${await digestHex(rawBody, secret)}`;
}

/** Compares in time that depends only on the (public) length, never on where bytes differ. */
function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** The hex digest from a header value; `sha256=` is stripped, a bare hex digest is accepted too. */
function parseHeader(header: string | null | undefined): string | WebhookSignatureFailure {
  if (header != null && typeof header !== 'string') return 'bad_format'; // e.g. a string[] from Node's IncomingHttpHeaders
  // The common case first, with no copies: exactly `sha256=<64 lowercase hex>`.
  if (header !== undefined && header !== null && header.length === 71 && header.startsWith('sha256=')) {
    const hex = header.slice(7);
    if (HEX_DIGEST.test(hex)) return hex;
  }
  if (header == null || header.trim() === '') return 'missing_header';
  let value = header.trim();
  if (value.toLowerCase().startsWith('sha256=')) value = value.slice(7);
  value = value.toLowerCase();
  return HEX_DIGEST.test(value) ? value : 'bad_format';
}

function compare(received: string | WebhookSignatureFailure, computed: string): WebhookSignatureFailure | undefined {
  if (received === 'missing_header' || received === 'bad_format') return received;
  return timingSafeEqualHex(computed, received) ? undefined : 'mismatch';
}

async function check(rawBody: RawBody, header: string | null | undefined, secret: string): Promise<WebhookSignatureFailure | undefined> {
  const received = parseHeader(header);
  if (received === 'missing_header' || received === 'bad_format') return received;
  if (typeof secret !== 'string' || secret === '') return 'mismatch';
  return compare(received, digestHexSync(rawBody, secret) ?? (await digestHex(rawBody, secret)));
}

/**
 * True when `signatureHeader` is the service's signature of exactly `rawBody` under `secret`.
 * Pass the raw, unparsed body: re-serialised JSON does not verify.
 */
export async function verifyWebhookSignature(rawBody: RawBody, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
  try {
    // Synchronous where node:crypto is a builtin: one promise per verification, the async function's own.
    if (nodeCrypto) {
      const received = parseHeader(signatureHeader);
      if (typeof received !== 'string' || received === 'missing_header' || received === 'bad_format') return false;
      if (typeof secret !== 'string' || secret === '') return false;
      return compare(received, digestHexSync(rawBody, secret)!) === undefined;
    }
    return (await check(rawBody, signatureHeader, secret)) === undefined;
  } catch {
    return false;
  }
}

const MESSAGES: Record<WebhookSignatureFailure, string> = {
  missing_header: 'No signature header (X-Service-Signature) on the request',
  bad_format: 'Signature header is not sha256=<64 hex characters>',
  mismatch: 'Signature does not match the body: wrong secret, or the body was changed or re-serialised',
  too_old: 'Event timestamp is older than the tolerance (possible replay)',
  invalid_timestamp: 'Event has no usable timestamp, or one too far in the future',
  invalid_payload: 'Body is not a JSON webhook event ({ event, data, timestamp })',
};

/**
 * Verify the signature, then parse and return the typed event. Throws WebhookSignatureError
 * with a `reason` when the header is missing or malformed, the signature does not match, the
 * body is not an event, or its `timestamp` is outside `toleranceSec`. A `deposit.confirmed`
 * event (the live service's name) comes back as `deposit.received`.
 *
 * ```ts
 * import { constructWebhookEvent, getSignatureHeader } from 'trx-rent/webhooks';
 *
 * declare const rawBody: string, headers: Headers, secret: string;
 * const event = await constructWebhookEvent(rawBody, getSignatureHeader(headers), secret);
 * switch (event.event) {
 *   case 'order.filled': console.log(event.data.fills); break; // data: Order
 *   case 'deposit.received': console.log(event.data.amount_sun); break;
 *   default: console.log('not handled:', event.event); // also events newer than this version
 * }
 * ```
 */
export async function constructWebhookEvent(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<KnownWebhookEvent> {
  // Replay protection is never turned off by an odd number (0, -1, NaN from an unset env var,
  // Infinity): only the explicit, named `skipTimestampCheck` does that.
  const tolerance = options.toleranceSec ?? 300;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance <= 0) {
    throw new RangeError(
      `toleranceSec must be a positive, finite number of seconds (got ${String(tolerance)}); to skip the replay check on purpose, pass { skipTimestampCheck: true }`,
    );
  }
  const failure = await check(rawBody, signatureHeader, secret);
  if (failure) throw new WebhookSignatureError(failure, MESSAGES[failure]);

  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(bytesOf(rawBody)));
  } catch {
    throw new WebhookSignatureError('invalid_payload', MESSAGES.invalid_payload);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookSignatureError('invalid_payload', MESSAGES.invalid_payload);
  }
  const event = body as Record<string, unknown>;
  if (typeof event.event !== 'string' || !event.data || typeof event.data !== 'object') {
    throw new WebhookSignatureError('invalid_payload', MESSAGES.invalid_payload);
  }

  if (options.skipTimestampCheck !== true) {
    const raw = typeof event.timestamp === 'string' ? Number(event.timestamp) : event.timestamp;
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      throw new WebhookSignatureError('invalid_timestamp', MESSAGES.invalid_timestamp);
    }
    const seconds = raw > 1e12 ? raw / 1000 : raw; // tolerate milliseconds
    const age = (options.now ?? Date.now()) / 1000 - seconds;
    if (age > tolerance) throw new WebhookSignatureError('too_old', MESSAGES.too_old);
    if (age < -tolerance) throw new WebhookSignatureError('invalid_timestamp', MESSAGES.invalid_timestamp);
  }

  const alias = Object.hasOwn(EVENT_ALIASES, event.event) ? EVENT_ALIASES[event.event] : undefined; // not 'constructor', '__proto__'…
  // Typed as the known union so a switch narrows; an unknown event type is returned as sent
  // (lenient on what we receive) and falls through to the caller's default branch.
  return (alias ? { ...event, event: alias } : event) as unknown as KnownWebhookEvent;
}

/** Header names the service has used for the signature (the spec's, and the live service's). */
export const SIGNATURE_HEADERS = ['x-service-signature', 'x-merx-signature'] as const;

/** Reads the signature from a Headers object or a Node-style header record, whichever name it uses. */
export function getSignatureHeader(headers: Headers | Record<string, string | string[] | undefined>): string | undefined {
  for (const name of SIGNATURE_HEADERS) {
    const value =
      typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, string | string[] | undefined>)[name];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return undefined;
}
