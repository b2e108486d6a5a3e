/**
 * The public shapes of the pay-per-call client: its options (`X402ClientOptions`), a call's
 * options, the quote shown to `onPayment`, the receipt of a payment and a paid call's result.
 * @module
 */
import type { Logger, LogLevel } from '../http/log.js';
import type { RetryListener } from '../http/attempts.js';
import type { RetryPolicy } from '../http/retry.js';
import type { TokenInfo } from '../protocol/networks.js';
import type { Payer } from './payers.js';
import type { AllowList, PreferEntry } from './offers.js';

/** Options of `X402Client`: the service, who pays, the spend limits and the transport. */
export interface X402ClientOptions {
  /** Service origin, e.g. `https://api.example.com` (`/x402/tron` is appended; a trailing `/x402/tron` is accepted). */
  baseUrl: string;
  /** Who pays: `evmPayer(…)` and/or `tronPayer(…)`, at most one of each kind. */
  payers: Payer[];
  /**
   * Most a single call may cost, USD as a decimal string (amount plus any fee).
   * @default '0.01' (the documented price)
   */
  maxPayment?: string;
  /**
   * Most all calls of this client together may cost, USD as a decimal string. A payment counts
   * from the moment it is sent, whatever the server answers.
   * @default undefined (no total)
   */
  budget?: string;
  /**
   * Order of preference among payable offers: `'tron'`, `'base'`, a CAIP-2 id, a symbol (`'USDT'`),
   * `'tron/USDD'`, a scheme (`'exact_permit'`), or `{ network, asset, scheme }`. Unlisted offers
   * rank last; within a rank the cheapest wins.
   * @default undefined (the cheapest offer)
   */
  prefer?: PreferEntry[];
  /**
   * Allow-lists: when given, offers outside them are refused.
   * @default undefined (any payTo, known asset and known network)
   */
  allow?: AllowList;
  /**
   * Stablecoins to accept beyond the built-in list (valued 1:1 with USD).
   * @default []
   */
  tokens?: TokenInfo[];
  /**
   * Longest time, in seconds, a signed payment may stay valid (EIP-3009 `validBefore`,
   * PaymentPermit and GasFree deadlines, TRON transaction expiration): min(the offer's
   * `maxTimeoutSeconds`, this). A payment that cannot be signed that short is refused
   * (PaymentRefusedError, reason `validity_too_long`). At most 3600.
   * @default 300
   */
  maxValiditySeconds?: number;
  /**
   * Called with the chosen offer before anything is signed (e.g. to show the price and ask).
   * Return `false` to decline: the call fails with PaymentRefusedError (reason `declined`).
   * @default undefined (pay without asking)
   */
  onPayment?: (quote: PaymentQuote) => boolean | void | Promise<boolean | void>;
  /**
   * Per-request timeout in milliseconds (each of the two requests of a paid call, and each call
   * to a TRON node or GasFree relayer while signing).
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Retries of the unpaid request (network errors, timeouts, 408, 429, 5xx, honouring
   * Retry-After), as the account client retries a safe call. The paid request is sent once:
   * a payment is never repeated.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Backoff tuning of those retries (full jitter); mostly for tests.
   * @default { baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 }
   */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /**
   * Largest response body read, in bytes; a larger one fails with RESPONSE_TOO_LARGE.
   * @default 8388608 (8 MiB)
   */
  maxResponseBytes?: number;
  /**
   * A fetch implementation (e.g. msw's, undici's, a test double).
   * @default globalThis.fetch, looked up on every request
   */
  fetch?: typeof fetch;
  /**
   * Headers added to every request.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * `debug` logs one line per request and payment (never payloads, signatures or keys).
   * @default process.env.TRX_RENT_LOG === 'debug' ? 'debug' : 'off'
   */
  logLevel?: LogLevel;
  /**
   * Where debug lines go.
   * @default console.error
   */
  logger?: Logger;
  /**
   * Told before each retry waits (a 429 or 503 answer, a network fault): the host, the status,
   * the wait. For showing why a call is slow; it cannot stop the retry.
   * @default undefined
   */
  onRetry?: RetryListener;
}

/** Options of one call of `X402Client`. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Override the client's maxPayment for this call (USD decimal string). */
  maxPayment?: string;
  /** Retries of this call's unpaid request. @default the client's `maxRetries` */
  maxRetries?: number;
}

/** The offer about to be paid, as shown to `onPayment`. */
export interface PaymentQuote {
  method: string;
  path: string;
  x402Version: 1 | 2;
  scheme: string;
  network: string;
  networkLabel: string;
  asset: string;
  symbol: string;
  decimals: number;
  /** Atomic units the server asks for. */
  amount: string;
  /** Total cost in USD (amount plus any fee known up front). */
  amount_usd: string;
  payTo: string;
  payer: string;
}

/** The payment made for a call, decoded from PAYMENT-RESPONSE / X-PAYMENT-RESPONSE. */
export interface PaymentReceipt {
  x402Version: 1 | 2;
  scheme: string;
  /** Network as the server named it in the settlement (or the offer). */
  network: string;
  /** Canonical id (`tron:728126428`, `eip155:8453`). */
  network_id: string;
  asset: string;
  symbol: string;
  decimals: number;
  /** Atomic units settled. */
  amount: string;
  /** Fee authorised on top (permit fee, GasFree maxFee), atomic units. */
  fee: string;
  /** USD value of amount + fee. */
  amount_usd: string;
  payTo: string;
  payer: string;
  /** Settlement transaction (EVM hash or TRON txID); null when the server sent no settlement header. */
  transaction: string | null;
}

/**
 * A paid call's result: the parsed `data`, the payment made for it, and the raw Response. Every
 * call returns an `ApiPromise` of it, as the account client's calls do (`.withResponse()` gives
 * `{ data: Paid<T>, response }`).
 */
export interface Paid<T> {
  data: T;
  payment: PaymentReceipt | null;
  response: Response;
}
