import type { z } from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { TrxRentError, ValidationError, isTrxRentError } from '../errors/index.js';
import { resolveLogger, type Logger } from '../http/log.js';
import { X402_ENDPOINTS as X } from '../api/x402.js';
import type { BodyOf, EndpointWire, ParamsOf, QueryOf } from '../api/types.js';
import { buildPath } from '../api/path.js';
import { ApiPromise } from '../http/api-promise.js';
import { type RetryListener, sendWithRetries } from '../http/attempts.js';
import { decodeResponse, parseJson, INVALID_JSON } from '../http/response.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../http/retry.js';
import { type Exchange, Transport } from '../http/transport.js';
import { API_PREFIX } from '../api/prefixes.js';
import { baseString, buildUrl, parseBaseUrl } from '../http/url.js';
import { validateRequest } from '../http/validate.js';
import type { Known } from '../schemas/known.js';
import { HEADERS, encodeBase64Json } from '../protocol/codec.js';
import { PaymentFailedError } from './errors.js';
import { networkLabel } from '../protocol/networks.js';
import type { Payer } from './payers.js';
import { attoToUsd } from './offers.js';
import { type Payment, SpendControl } from './spend.js';
import { type Challenge, readChallenge, readChallengeError, readSettlement, receiptOf, unpaidAnswer } from './challenge.js';
import { signPayment } from './sign.js';
import type { CallOptions, Paid, PaymentQuote, PaymentReceipt, X402ClientOptions } from './types.js';
import { DEFAULT_MAX_VALIDITY_SECONDS, MAX_VALIDITY_SECONDS } from './validity.js';

/** An entry of the pay-per-call table. */
type X402Entry = EndpointWire & { readonly id: string; readonly path: string };

const JSON_TYPE = 'application/json';

/** The request being paid for, as the exchange needs it. */
interface Call {
  method: 'GET' | 'POST';
  path: string;
  label: string;
  options: CallOptions;
  maxPaymentAtto: bigint;
  timeoutMs: number;
  /** Sends the request once more through the transport, with `extra` headers (the payment). */
  send(extra?: Record<string, string>): Promise<Exchange>;
}

/**
 * Client for the pay-per-call API (`/x402/tron/*`). Each call is paid through x402 v2 or v1,
 * within `maxPayment` per call and `budget` in total, with at most one payment attempt.
 * Requests go through the same transport as the account client (deadline, no redirects,
 * bounded bodies, typed errors); this class adds only the 402 exchange: challenge, choice of an
 * offer, signature, paid retry.
 *
 * ```ts
 * import { X402Client, tronPayer } from 'trx-rent/x402';
 *
 * const x402 = new X402Client({
 *   baseUrl: 'https://api.example.com',
 *   payers: [tronPayer({ privateKey: process.env.TRON_KEY! })],
 *   maxPayment: '0.01',
 *   budget: '1',
 * });
 * const { data, payment } = await x402.prices();
 * ```
 */
export class X402Client {
  readonly baseUrl: string;
  readonly payers: readonly Payer[];
  readonly #spend: SpendControl;
  readonly #transport: Transport;
  readonly #headers: Record<string, string>;
  readonly #logger: Logger | undefined;
  readonly #onRetry: RetryListener | undefined;
  readonly #timeoutMs: number;
  readonly #maxValiditySeconds: number;
  readonly #onPayment: X402ClientOptions['onPayment'];
  readonly #policy: RetryPolicy;

  constructor(options: X402ClientOptions) {
    if (!options || typeof options !== 'object') throw config('options are required');
    this.baseUrl = baseString(parseBaseUrl(options.baseUrl, API_PREFIX.x402, 'pass { baseUrl }'));
    if (!Array.isArray(options.payers) || options.payers.length === 0) throw config('payers: give at least one payer (evmPayer or tronPayer)');
    const kinds = new Set<string>();
    for (const payer of options.payers) {
      if (!payer || typeof payer.register !== 'function') throw config('payers: each entry must come from evmPayer() or tronPayer()');
      if (kinds.has(payer.kind)) throw config(`payers: at most one ${payer.kind} payer`);
      kinds.add(payer.kind);
    }
    this.payers = Object.freeze([...options.payers]);
    const validity = options.maxValiditySeconds ?? DEFAULT_MAX_VALIDITY_SECONDS;
    if (!Number.isSafeInteger(validity) || validity < 1 || validity > MAX_VALIDITY_SECONDS) {
      throw new ValidationError({
        code: 'VALIDATION_ERROR',
        message: `maxValiditySeconds must be a whole number of seconds from 1 to ${MAX_VALIDITY_SECONDS}, not ${String(options.maxValiditySeconds)}`,
        details: { field: 'maxValiditySeconds' },
      });
    }
    this.#maxValiditySeconds = validity;
    this.#spend = new SpendControl({
      maxPayment: options.maxPayment,
      budget: options.budget,
      allow: options.allow,
      prefer: options.prefer,
      tokens: options.tokens,
      canPay: (offer) => this.payers.some((p) => p.supports(offer)),
    });
    this.#onPayment = options.onPayment;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#headers = { accept: JSON_TYPE, ...options.headers };
    this.#logger = resolveLogger(options);
    this.#onRetry = options.onRetry;
    this.#transport = new Transport({ fetch: options.fetch, maxResponseBytes: options.maxResponseBytes });
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
  }

  /** USD spent so far (settled, or sent and possibly settled), decimal string. */
  get spent(): string {
    return attoToUsd(this.#spend.spentAtto);
  }

  /** USD left in the budget (reservations in flight excluded), or undefined without a budget. */
  get remainingBudget(): string | undefined {
    const left = this.#spend.remainingAtto;
    return left === undefined ? undefined : attoToUsd(left);
  }

  // ---- the twelve endpoints ----

  /** `x402Prices`: energy/bandwidth prices aggregated from providers. */
  prices(query: QueryOf<typeof X.x402Prices> = {}, options?: CallOptions) {
    return this.#endpoint(X.x402Prices, { query }, options);
  }

  /** `x402Account`: TRX balance, resources and TRC-20 balances. */
  account(address: string, options?: CallOptions) {
    return this.#endpoint(X.x402Account, { params: { address } }, options);
  }

  /** `x402Estimate`: energy and bandwidth a transaction needs, and what it costs. */
  estimate(body: BodyOf<typeof X.x402Estimate>, options?: CallOptions) {
    return this.#endpoint(X.x402Estimate, { body }, options);
  }

  /** `x402SwapQuote` */
  swapQuote(body: BodyOf<typeof X.x402SwapQuote>, options?: CallOptions) {
    return this.#endpoint(X.x402SwapQuote, { body }, options);
  }

  /** `x402Network`: chain parameters. */
  network(query: QueryOf<typeof X.x402Network> = {}, options?: CallOptions) {
    return this.#endpoint(X.x402Network, { query }, options);
  }

  /** `x402Invoice`: an invoice whose payments are detected automatically. */
  invoice(body: BodyOf<typeof X.x402Invoice>, options?: CallOptions) {
    return this.#endpoint(X.x402Invoice, { body }, options);
  }

  /** `x402Watch`: a webhook on each matching incoming TRC-20 transfer for 24 hours. */
  watch(body: BodyOf<typeof X.x402Watch>, options?: CallOptions) {
    return this.#endpoint(X.x402Watch, { body }, options);
  }

  /** `x402Receive`: a one-time watch for an expected payment. */
  receive(body: BodyOf<typeof X.x402Receive>, options?: CallOptions) {
    return this.#endpoint(X.x402Receive, { body }, options);
  }

  /** `x402Send`: broadcast a transfer you signed (see `signTrc20Transfer`), energy bought for you. */
  send(body: BodyOf<typeof X.x402Send>, options?: CallOptions) {
    return this.#endpoint(X.x402Send, { body }, options);
  }

  /** `x402SendBatch`: up to 50 signed transfers (checked locally). */
  sendBatch(body: BodyOf<typeof X.x402SendBatch> | BodyOf<typeof X.x402SendBatch>['transfers'], options?: CallOptions) {
    return this.#endpoint(X.x402SendBatch, { body: Array.isArray(body) ? { transfers: body } : body }, options);
  }

  /** `x402SwapExecute` */
  swapExecute(body: BodyOf<typeof X.x402SwapExecute>, options?: CallOptions) {
    return this.#endpoint(X.x402SwapExecute, { body }, options);
  }

  /** `x402Rpc`: one of the nine whitelisted node methods (`wallet/` may be omitted). */
  rpc(method: ParamsOf<typeof X.x402Rpc>['method'] | (string & {}), body: BodyOf<typeof X.x402Rpc> = {}, options?: CallOptions) {
    const name = typeof method === 'string' && !method.startsWith('wallet/') ? `wallet/${method}` : method;
    return this.#endpoint(X.x402Rpc, { params: { method: name }, body }, options);
  }

  /**
   * One operation of the table: its path, query and body checked with the entry's strict
   * schemas before anything is sent (a bad field is a ValidationError naming it), the answer
   * with its response schema. Every fact comes from the entry (`src/api/x402.ts`).
   */
  #endpoint<E extends X402Entry>(
    entry: E,
    input: { params?: unknown; query?: unknown; body?: unknown },
    options: CallOptions | undefined,
  ): ApiPromise<Paid<Known<z.output<E['response']>>>> {
    return this.#start(async () => {
      const path = entry.params ? buildPath(entry, validateRequest(entry.params, input.params) as Record<string, string>) : entry.path;
      const query = entry.query ? (validateRequest(entry.query, input.query ?? {}) as Record<string, unknown>) : undefined;
      const body = entry.body ? validateRequest(entry.body, input.body) : undefined;
      return this.#call(entry.method as 'GET' | 'POST', path, { query, body, schema: entry.response as E['response'], options });
    });
  }

  /**
   * Any pay-per-call route under `/x402/` (what `trx-rent api` uses for routes the methods above
   * do not cover): the same exchange, spend control and confirmation, the answer checked with
   * `schema`. The path is sent as given (encode its segments with `path`).
   */
  request<S extends z.ZodType>(
    method: 'GET' | 'POST',
    route: string,
    req: { schema: S; query?: Record<string, unknown>; body?: unknown; options?: CallOptions },
  ): ApiPromise<Paid<Known<z.output<S>>>> {
    return this.#start(async () => {
      if (!route.startsWith('/x402/')) {
        throw new ValidationError({ code: 'VALIDATION_ERROR', message: `an x402 route starts with /x402/, not ${route}`, details: { field: 'path' } });
      }
      return this.#call(method, route, req);
    });
  }

  /** A call as an ApiPromise: awaited, the paid result; `.withResponse()`, it with its Response. */
  #start<T>(run: () => Promise<Paid<T>>): ApiPromise<Paid<T>> {
    return new ApiPromise(async () => {
      const paid = await run();
      return { data: paid, response: paid.response };
    });
  }

  // ---- the paid request: challenge, choice, signature, paid retry ----

  async #call<S extends ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    req: { query?: Record<string, unknown>; body?: unknown; schema: S; options?: CallOptions | undefined },
  ): Promise<Paid<Known<z.output<S>>>> {
    const options = req.options ?? {};
    const url = buildUrl(this.baseUrl, path, req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers = body === undefined ? this.#headers : { ...this.#headers, 'content-type': JSON_TYPE };
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const label = `${method} ${path}`;
    const call: Call = {
      method,
      path,
      label,
      options,
      timeoutMs,
      maxPaymentAtto: this.#spend.maxPaymentFor(options.maxPayment),
      send: async (extra) => {
        const started = Date.now();
        this.#log(`→ ${label}${extra ? ' (with payment)' : ''}`);
        const exchange = await this.#transport.send(url, {
          method,
          headers: extra ? { ...headers, ...extra } : headers,
          body,
          timeoutMs,
          signal: options.signal,
          label,
        });
        this.#log(`← ${exchange.response.status} ${label} ${Date.now() - started} ms`);
        return exchange;
      },
    };

    // The unpaid request carries nothing the server can act on, so it is retried like a safe
    // call; the paid one (in #pay) goes out once.
    let exchange = await sendWithRetries({
      transport: this.#transport,
      url,
      init: { method, headers, body, timeoutMs, signal: options.signal, label },
      policy: this.#policy,
      maxRetries: options.maxRetries ?? this.#policy.maxRetries,
      canRetry: true,
      log: this.#logger && this.#logLine,
      onRetry: this.#onRetry,
      finish: unpaidAnswer,
    });
    let payment: PaymentReceipt | null = null;
    if (exchange.response.status === 402) ({ exchange, payment } = await this.#pay(call, exchange));
    const { response, text } = exchange;
    try {
      return { data: decodeResponse(req.schema, response, text, label, { payment }) as Known<z.output<S>>, payment, response };
    } catch (error) {
      if (payment && isTrxRentError(error)) (error as { payment?: PaymentReceipt }).payment = payment;
      throw error;
    }
  }

  /**
   * Answers a 402: every spend check, one offer chosen and its cost reserved, `onPayment`, the
   * signature, then the one paid retry. The reservation is released if nothing was sent, and
   * kept (counted as spent) as soon as the signed payment has gone out, whatever comes back.
   */
  async #pay(call: Call, challenged: Exchange): Promise<{ exchange: Exchange; payment: PaymentReceipt | null }> {
    const challenge = readChallenge(challenged);
    let payment: Payment;
    try {
      payment = this.#spend.authorize(challenge.x402Version, challenge.accepts, call.maxPaymentAtto);
    } catch (error) {
      this.#log(`  refused: ${(error as Error).message}`);
      throw error;
    }
    const { offer } = payment;
    const payer = this.payers.find((p) => p.supports(offer))!;
    let header: Record<string, string>;
    try {
      await this.#confirm(call, payment, payer);
      const signed = await this.#sign(call, challenge, payment, payer);
      header = { [challenge.x402Version === 1 ? HEADERS.X_PAYMENT : HEADERS.PAYMENT_SIGNATURE]: encodeBase64Json(signed) };
    } catch (error) {
      payment.release();
      throw error;
    }

    // From here on the payment is out: it counts, whatever the paid retry answers (a 402, a 5xx,
    // a redirect, a dropped connection), since the server may have settled it.
    payment.commit();
    const exchange = await call.send(header);
    const { response, text } = exchange;
    const settlement = readSettlement(response.headers);
    if (response.status === 402) {
      const body = parseJson(text);
      const reason =
        settlement?.errorReason ??
        readChallengeError(response.headers) ??
        (body !== INVALID_JSON && typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : undefined) ??
        'payment_rejected';
      this.#log(`  payment rejected: ${reason}`);
      throw new PaymentFailedError({
        reason,
        message: `${call.label}: the server rejected the payment (${reason})${settlement?.errorMessage ? `: ${settlement.errorMessage}` : ''}`,
        headers: response.headers,
        details: { settlement },
      });
    }
    if (settlement && settlement.success === false) {
      throw new PaymentFailedError({
        reason: settlement.errorReason ?? 'settlement_failed',
        status: response.status,
        headers: response.headers,
        details: { settlement },
      });
    }
    // An error answer without a settlement: x402 servers settle only after serving, so there is
    // no receipt (the payment still counts: this client cannot tell it was not settled).
    if (!response.ok && !settlement?.success) return { exchange, payment: null };
    const receipt = receiptOf(payment, payer, settlement);
    this.#log(
      `  paid ${receipt.amount_usd} USD in ${receipt.symbol} on ${networkLabel(receipt.network)} (${receipt.scheme}), tx ${receipt.transaction ?? 'n/a'}`,
    );
    return { exchange, payment: receipt };
  }

  /** Shows the chosen offer to `onPayment`; `false` declines (PaymentRefusedError, nothing signed). */
  async #confirm(call: Call, payment: Payment, payer: Payer): Promise<void> {
    const { offer } = payment;
    const quote: PaymentQuote = {
      method: call.method,
      path: call.path,
      x402Version: offer.x402Version,
      scheme: offer.scheme,
      network: offer.network,
      networkLabel: networkLabel(offer.network),
      asset: offer.asset,
      symbol: offer.token.symbol,
      decimals: offer.token.decimals,
      amount: offer.amount.toString(),
      amount_usd: attoToUsd(offer.costAtto),
      payTo: offer.payTo,
      payer: payer.address,
    };
    this.#log(`  402: paying ${quote.amount_usd} USD in ${quote.symbol} on ${quote.networkLabel} (${quote.scheme}, x402 v${quote.x402Version})`);
    if (this.#onPayment && (await this.#onPayment(quote)) === false) {
      throw payment.refuse('declined', 'onPayment returned false', { summary: 'declined by the caller (onPayment returned false)' });
    }
  }

  /** The signed payment payload for the chosen offer (`signPayment`, `sign.ts`), validity capped at maxValiditySeconds. */
  #sign(call: Call, challenge: Challenge, payment: Payment, payer: Payer): Promise<Record<string, unknown>> {
    return signPayment(challenge, payment, payer, {
      transport: this.#transport,
      timeoutMs: call.timeoutMs,
      signal: call.options.signal,
      maxValiditySeconds: this.#maxValiditySeconds,
    });
  }

  readonly #logLine = (message: string): void => this.#log(message);

  #log(message: string): void {
    this.#logger?.debug(`trx-rent x402 ${message}`);
  }
}

function config(message: string): TrxRentError {
  return new TrxRentError({ code: 'CONFIGURATION_ERROR', message });
}
