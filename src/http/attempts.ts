/**
 * The one retry loop every request with retries goes through: the account client's requests
 * and the x402 client's unpaid request. It sends through the shared Transport, retries network
 * faults and retryable answers (see `retry.ts`) with backoff and jitter, honouring Retry-After,
 * and leaves what an answer means to the caller's `finish`. A request that must not be repeated
 * (a paid x402 request, a POST without an Idempotency-Key) passes `canRetry: false`. Before each
 * wait it tells the caller's `onRetry` listener (when there is one) what failed and how long the
 * wait is, so a person can be shown why nothing moves.
 * @module
 */
import { ConnectionError, TimeoutError, type TrxRentError } from '../errors/index.js';
import { type Clock, systemClock } from '../utils/clock.js';
import { RETRYABLE_STATUSES, type RetryPolicy, backoffDelay } from './retry.js';
import type { AttemptInit, Exchange, Transport } from './transport.js';

/**
 * A retry about to wait: what the last attempt got and how long until the next one. Given to an
 * `onRetry` listener (`new TrxRent({ onRetry })`, `new X402Client({ onRetry })`, the TRON node's
 * options) before the wait starts.
 */
export interface RetryEvent {
  /** The request: its method and path (`POST` and the orders path, say). */
  label: string;
  /** The host the request went to, with its port when one is written (`api.example.com`, `127.0.0.1:8787`). */
  host: string;
  /** The status answered (429, 503, …); undefined when no answer came (a network fault or a timeout). */
  status: number | undefined;
  /** The error's code: `RATE_LIMITED`, `PROVIDER_UNAVAILABLE`, `CONNECTION_ERROR`, `TIMEOUT`, … */
  code: string;
  /** Which retry comes next (1 for the first) and how many there may be. */
  retry: number;
  maxRetries: number;
  /** Milliseconds until the next attempt. */
  delayMs: number;
  /** Whether `delayMs` is the server's Retry-After (else backoff with jitter). */
  retryAfter: boolean;
}

/** A listener of {@link RetryEvent}s; what it throws is ignored (a listener cannot stop a retry). */
export type RetryListener = (event: RetryEvent) => void;

/** One request and how to retry it. */
export interface RetryingRequest<T> {
  transport: Transport;
  url: string;
  /** The attempt, sent as is each time (its `label` names it in log lines). */
  init: AttemptInit;
  policy: RetryPolicy;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** False for a request that must never be sent twice. */
  canRetry: boolean;
  /** Whose time the backoff waits on. @default systemClock */
  clock?: Clock | undefined;
  /** Debug lines (one per attempt, response and retry); undefined logs nothing. */
  log?: ((message: string) => void) | undefined;
  /** Told before each wait for a retry; undefined costs nothing. */
  onRetry?: RetryListener | undefined;
  /**
   * From an answer to the result. Throws the typed error of an error answer: the loop retries
   * it when its status is retryable (or `again` says so) and attempts are left.
   */
  finish: (exchange: Exchange, attempt: number) => T;
  /** More answers worth another attempt, beyond the retryable statuses. */
  again?: ((error: TrxRentError, response: Response, attempt: number) => boolean) | undefined;
  /**
   * Maps the final error before it is thrown; `unanswered` is true when some attempt got no
   * answer at all (its outcome is unknown, e.g. a keyed POST that may have acted).
   */
  fail?: ((error: unknown, unanswered: boolean) => unknown) | undefined;
}

/** Sends `req` until `finish` accepts an answer or the retries run out; the last error is thrown. */
export async function sendWithRetries<T>(req: RetryingRequest<T>): Promise<T> {
  const { transport, url, init, policy, maxRetries, log } = req;
  const canRetry = req.canRetry && maxRetries > 0;
  let unanswered = false;
  const final = (error: unknown): unknown => (req.fail ? req.fail(error, unanswered) : error);
  for (let attempt = 0; ; attempt++) {
    const started = log ? Date.now() : 0;
    if (log) log(`→ ${init.label}${attempt ? ` (retry ${attempt}/${maxRetries})` : ''}`);
    let exchange: Exchange;
    try {
      exchange = await transport.send(url, init);
    } catch (failure) {
      // Only faults of the network are retried: a redirect, an oversized body or the caller's
      // abort are final.
      if (!(failure instanceof ConnectionError || failure instanceof TimeoutError) || !canRetry || attempt >= maxRetries) throw final(failure);
      unanswered = true;
      await wait(req, failure, undefined, attempt);
      continue;
    }
    const { response } = exchange;
    if (log) log(`← ${response.status} ${init.label} ${Date.now() - started} ms`);
    try {
      return req.finish(exchange, attempt);
    } catch (failure) {
      const error = failure as TrxRentError;
      if (!canRetry || attempt >= maxRetries || !(RETRYABLE_STATUSES.has(response.status) || req.again?.(error, response, attempt))) throw final(error);
      const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
      if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) throw final(error);
      await wait(req, error, response.status, attempt, retryAfterMs);
    }
  }
}

/** Sleeps before the next attempt: the server's Retry-After, else backoff with full jitter. */
async function wait(req: RetryingRequest<unknown>, error: TrxRentError, status: number | undefined, attempt: number, retryAfterMs?: number): Promise<void> {
  const delay = retryAfterMs ?? backoffDelay(attempt, req.policy);
  if (req.log) req.log(`  ${error.code}${status === undefined ? '' : ` (${status})`}; retrying in ${delay} ms`);
  if (req.onRetry) {
    const event: RetryEvent = {
      label: req.init.label,
      host: hostOf(req.url),
      status,
      code: error.code,
      retry: attempt + 1,
      maxRetries: req.maxRetries,
      delayMs: delay,
      retryAfter: retryAfterMs !== undefined,
    };
    try {
      req.onRetry(event);
    } catch {
      // a listener's failure is its own: the retry goes ahead
    }
  }
  await (req.clock ?? systemClock).sleep(delay, req.init.signal);
}

/** `host[:port]` of a URL, for people. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
