import type { z } from 'zod';
import { ConnectionError, TimeoutError, TrxRentError, ValidationError, errorFromBody } from '../errors/index.js';
import { validateRequest } from '../http/validate.js';
import { type Logger, type LogLevel, redactText, stderrLogger } from '../http/log.js';
import { buildUrl } from '../http/url.js';
import { isErrorEnvelope, unwrapEnvelope } from '../schemas/common.js';
import {
  BatchSendRequest,
  BatchSendResult,
  Estimate,
  EstimateRequest,
  Invoice,
  InvoiceRequest,
  NetworkInfo,
  NetworkQuery,
  PaymentRequiredV1,
  PaymentRequiredV2,
  RPC_METHODS,
  Receive,
  ReceiveRequest,
  RpcBody,
  RpcResult,
  SendRequest,
  SendResult,
  SettlementResponse,
  SwapExecuteRequest,
  SwapExecution,
  SwapQuote,
  SwapQuoteRequest,
  Watch,
  WatchRequest,
  X402Account,
  X402AccountParams,
  X402PriceList,
  X402PricesQuery,
  X402_LIMITS,
  type RpcMethod,
} from '../schemas/x402.js';
import { HEADERS, decodeBase64Json, sameJson } from '../protocol/codec.js';
import { PaymentFailedError, PaymentRefusedError, PaymentSigningError } from './errors.js';
import { type TokenInfo, networkLabel, normaliseNetwork } from '../protocol/networks.js';
import { loadX402Core, loadX402Fetch } from '../peers/index.js';
import type { CoreClientLike, Payer, PaymentContext } from './payers.js';
import {
  type AllowList,
  Budget,
  type Offer,
  type PreferEntry,
  type Reservation,
  type SpendPolicy,
  attoToUsd,
  chooseOffer,
  evaluateOffers,
  refusal,
  tokenToAtto,
  usdToAtto,
} from './spend.js';

export interface X402ClientOptions {
  /** Service origin, e.g. `https://api.example.com` (`/x402/tron` is appended). */
  baseUrl: string;
  /** Who pays: `evmPayer(…)` and/or `tronPayer(…)`, at most one of each kind. */
  payers: Payer[];
  /** Most a single call may cost, USD as a decimal string. Default `'0.01'` (the documented price). */
  maxPayment?: string;
  /** Most all calls of this client together may cost, USD as a decimal string. Default: no total. */
  budget?: string;
  /**
   * Order of preference among payable offers: `'tron'`, `'base'`, a CAIP-2 id, a symbol (`'USDT'`),
   * `'tron/USDD'`, a scheme (`'exact_permit'`), or `{ network, asset, scheme }`. Unlisted offers
   * rank last; within a rank the cheapest wins. Default: cheapest.
   */
  prefer?: PreferEntry[];
  /** Allow-lists: when given, offers outside them are refused. */
  allow?: AllowList;
  /** Stablecoins to accept beyond the built-in list (valued 1:1 with USD). */
  tokens?: TokenInfo[];
  /**
   * Called with the chosen offer before anything is signed (e.g. to show the price and ask).
   * Return `false` to decline: the call fails with PaymentRefusedError (reason `declined`).
   */
  onPayment?: (quote: PaymentQuote) => boolean | void | Promise<boolean | void>;
  /** Per-request timeout (each of the two requests of a paid call). Default 30 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /** `debug` logs one line per request and payment (never payloads, signatures or keys). */
  logLevel?: LogLevel;
  logger?: Logger;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Override the client's maxPayment for this call (USD decimal string). */
  maxPayment?: string;
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

/** A paid call's result: the parsed `data`, the payment made for it, and the raw Response. */
export interface Paid<T> {
  data: T;
  payment: PaymentReceipt | null;
  response: Response;
}

interface CallState {
  core?: CoreClientLike;
  context?: PaymentContext;
  limitLibrary?: (offer: Offer) => unknown;
  offer?: (Offer & { costAtto: bigint }) | undefined;
  payer?: Payer | undefined;
  reservation?: Reservation | undefined;
  fee: bigint;
  paymentSent: boolean;
  creationError?: unknown;
  ownError?: { error: unknown };
}

const JSON_TYPE = 'application/json';

/**
 * Client for the pay-per-call API (`/x402/tron/*`). Each call is paid through x402 v2 or v1,
 * within `maxPayment` per call and `budget` in total, with at most one payment attempt.
 *
 * ```ts
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
  readonly #maxPaymentAtto: bigint;
  readonly #budget: Budget;
  readonly #options: X402ClientOptions;
  readonly #logger: Logger | undefined;
  readonly #timeoutMs: number;

  constructor(options: X402ClientOptions) {
    if (!options || typeof options !== 'object') throw config('options are required');
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw config(`baseUrl is not a URL: ${String(options.baseUrl)}`);
    }
    this.baseUrl = url.href.replace(/\/+$/, '').replace(/\/x402\/tron$/, '');
    if (!Array.isArray(options.payers) || options.payers.length === 0) throw config('payers: give at least one payer (evmPayer or tronPayer)');
    const kinds = new Set<string>();
    for (const payer of options.payers) {
      if (!payer || typeof payer.register !== 'function') throw config('payers: each entry must come from evmPayer() or tronPayer()');
      if (kinds.has(payer.kind)) throw config(`payers: at most one ${payer.kind} payer`);
      kinds.add(payer.kind);
    }
    this.payers = Object.freeze([...options.payers]);
    this.#maxPaymentAtto = usdToAtto(options.maxPayment ?? X402_LIMITS.FIXED_PRICE_USD, 'maxPayment');
    this.#budget = new Budget(options.budget === undefined ? undefined : usdToAtto(options.budget, 'budget'));
    this.#options = options;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    const level = options.logLevel ?? (typeof process !== 'undefined' && process.env?.TRX_RENT_LOG === 'debug' ? 'debug' : 'off');
    this.#logger = level === 'debug' ? (options.logger ?? stderrLogger) : undefined;
  }

  /** USD spent so far (settled or possibly settled), decimal string. */
  get spent(): string {
    return attoToUsd(this.#budget.spentAtto);
  }

  /** USD left in the budget (reservations in flight excluded), or undefined without a budget. */
  get remainingBudget(): string | undefined {
    return this.#budget.totalAtto === undefined ? undefined : attoToUsd(this.#budget.remainingAtto);
  }

  // ---- the twelve endpoints ----

  /** GET /x402/tron/prices: energy/bandwidth prices aggregated from providers. */
  async prices(query: X402PricesQuery = {}, options?: CallOptions) {
    const q = validateRequest(X402PricesQuery, query);
    return this.#call('GET', '/x402/tron/prices', { query: q, schema: X402PriceList, options });
  }

  /** GET /x402/tron/account/{address}: TRX balance, resources and TRC-20 balances. */
  async account(address: string, options?: CallOptions) {
    const { address: a } = validateRequest(X402AccountParams, { address });
    return this.#call('GET', `/x402/tron/account/${encodeURIComponent(a)}`, { schema: X402Account, options });
  }

  /** POST /x402/tron/estimate: energy and bandwidth a transaction needs, and what it costs. */
  async estimate(body: EstimateRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/estimate', { body: validateRequest(EstimateRequest, body), schema: Estimate, options });
  }

  /** POST /x402/tron/swap/quote */
  async swapQuote(body: SwapQuoteRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/swap/quote', { body: validateRequest(SwapQuoteRequest, body), schema: SwapQuote, options });
  }

  /** GET /x402/tron/network: chain parameters. */
  async network(query: NetworkQuery = {}, options?: CallOptions) {
    return this.#call('GET', '/x402/tron/network', { query: validateRequest(NetworkQuery, query), schema: NetworkInfo, options });
  }

  /** POST /x402/tron/invoice: an invoice whose payments are detected automatically. */
  async invoice(body: InvoiceRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/invoice', { body: validateRequest(InvoiceRequest, body), schema: Invoice, options });
  }

  /** POST /x402/tron/watch: a webhook on each matching incoming TRC-20 transfer for 24 hours. */
  async watch(body: WatchRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/watch', { body: validateRequest(WatchRequest, body), schema: Watch, options });
  }

  /** POST /x402/tron/receive: a one-time watch for an expected payment. */
  async receive(body: ReceiveRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/receive', { body: validateRequest(ReceiveRequest, body), schema: Receive, options });
  }

  /** POST /x402/tron/send: broadcast a transfer you signed (see `signTrc20Transfer`), energy bought for you. */
  async send(body: SendRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/send', { body: validateRequest(SendRequest, body), schema: SendResult, options });
  }

  /** POST /x402/tron/send/batch: up to 50 signed transfers (checked locally). */
  async sendBatch(body: BatchSendRequest | BatchSendRequest['transfers'], options?: CallOptions) {
    const input = Array.isArray(body) ? { transfers: body } : body;
    return this.#call('POST', '/x402/tron/send/batch', { body: validateRequest(BatchSendRequest, input), schema: BatchSendResult, options });
  }

  /** POST /x402/tron/swap/execute */
  async swapExecute(body: SwapExecuteRequest, options?: CallOptions) {
    return this.#call('POST', '/x402/tron/swap/execute', { body: validateRequest(SwapExecuteRequest, body), schema: SwapExecution, options });
  }

  /** POST /x402/tron/rpc/{method}: one of the nine whitelisted node methods (`wallet/` may be omitted). */
  async rpc(method: RpcMethod | (string & {}), body: Record<string, unknown> = {}, options?: CallOptions) {
    const name = typeof method === 'string' && !method.startsWith('wallet/') ? `wallet/${method}` : method;
    if (!(RPC_METHODS as readonly string[]).includes(name)) {
      throw new ValidationError({
        code: 'VALIDATION_ERROR',
        message: `method must be one of ${RPC_METHODS.join(', ')}`,
        details: { field: 'method', value: method },
      });
    }
    return this.#call('POST', `/x402/tron/rpc/${name}`, { body: validateRequest(RpcBody, body), schema: RpcResult, options });
  }

  // ---- the paid request ----

  async #call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    req: { query?: Record<string, unknown>; body?: unknown; schema: S; options?: CallOptions | undefined },
  ): Promise<Paid<z.output<S>>> {
    const options = req.options ?? {};
    const maxPaymentAtto = options.maxPayment === undefined ? this.#maxPaymentAtto : usdToAtto(options.maxPayment, 'maxPayment');
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const baseFetch = this.#options.fetch ?? globalThis.fetch;
    const url = this.#url(path, req.query);
    const state: CallState = { fee: 0n, paymentSent: false };
    const log = (m: string) => this.#logger?.debug(`trx-rent x402 ${m}`);

    const policy: SpendPolicy = {
      maxPaymentAtto,
      budget: this.#budget,
      allow: this.#options.allow,
      prefer: this.#options.prefer,
      tokens: this.#options.tokens ?? [],
      canPay: (offer) => this.payers.some((p) => p.supports(offer)),
    };

    const [{ x402Client }, { wrapFetchWithPayment }] = await Promise.all([loadX402Core(), loadX402Fetch()]);
    const core = new x402Client((_version, accepts) => {
      const match = accepts.find((a) => state.offer && sameJson(a, state.offer.raw));
      if (!match) throw new Error('the chosen offer is no longer in the challenge');
      return match;
    });
    // Only the offer our spend checks chose may be paid, and for no more than it asked.
    core.registerPolicy((_version, accepts) => accepts.filter((a) => state.offer && sameJson(a, state.offer.raw)));
    core.onPaymentCreationFailure(async (ctx) => {
      state.creationError = ctx.error;
    });

    const context: PaymentContext = {
      fetch: baseFetch,
      signal: options.signal,
      timeoutMs,
      authorizeFee: (requirements, feeAtomic) => {
        const offer = state.offer!;
        const token = offer.token!;
        const total = tokenToAtto(BigInt(requirements.amount) + feeAtomic, token.decimals);
        const base = { scheme: offer.scheme, network: offer.network, asset: offer.asset, amount: (offer.amount + feeAtomic).toString(), amount_usd: attoToUsd(total), payTo: offer.payTo };
        if (total > maxPaymentAtto) {
          throw new PaymentRefusedError(`Payment refused before signing: amount plus fee ${attoToUsd(total)} USD is above maxPayment ${attoToUsd(maxPaymentAtto)} USD`, [
            { ...base, reason: 'above_max_payment', message: `fee ${feeAtomic} atomic units on top of the amount` },
          ]);
        }
        const extra = total - offer.costAtto;
        if (extra > 0n && !state.reservation?.grow(extra)) {
          throw new PaymentRefusedError(`Payment refused before signing: amount plus fee ${attoToUsd(total)} USD does not fit the remaining budget`, [
            { ...base, reason: 'over_budget', message: 'fee does not fit the budget' },
          ]);
        }
        state.fee = feeAtomic;
      },
    };

    state.core = core as unknown as CoreClientLike;
    state.context = context;
    // The library's own spend control, on top of ours: only the chosen asset, at most its amount.
    state.limitLibrary = (offer) =>
      core.setSpendControls({
        maxAmountPerPayment: false,
        allowedAssets: [{ network: offer.network as `${string}:${string}`, asset: offer.asset, maxAmountPerPayment: offer.amount.toString() }],
      });

    const inner = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const paying = request.headers.has(HEADERS.PAYMENT_SIGNATURE) || request.headers.has(HEADERS.X_PAYMENT);
      if (paying) state.paymentSent = true;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let response: Response;
      const started = Date.now();
      log(`→ ${method} ${path}${paying ? ' (with payment)' : ''}`);
      try {
        response = await baseFetch(request, { signal });
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        if (timeout.aborted) throw new TimeoutError(`${method} ${path} timed out after ${timeoutMs} ms`, cause);
        throw new ConnectionError(`${method} ${path} failed: ${redactText(String((cause as Error)?.message ?? cause))}`, cause);
      }
      log(`← ${response.status} ${method} ${path} ${Date.now() - started} ms`);
      if (!paying && response.status === 402) {
        try {
          await this.#choose(response, method, path, policy, state, log);
        } catch (error) {
          state.ownError = { error }; // a refusal, or the onPayment hook's own error: rethrown as is
          throw error;
        }
      }
      return response;
    };

    const paidFetch = wrapFetchWithPayment(inner, core);
    const headers: Record<string, string> = { accept: JSON_TYPE, ...this.#options.headers };
    const init: RequestInit = { method, headers };
    if (req.body !== undefined) {
      headers['content-type'] = JSON_TYPE;
      init.body = JSON.stringify(req.body);
    }

    let response: Response;
    try {
      response = await paidFetch(url, init);
    } catch (error) {
      if (state.paymentSent) state.reservation?.commit(); // outcome unknown: count it
      else state.reservation?.release();
      if (state.ownError && state.ownError.error === error) throw error;
      if (error instanceof TrxRentError) throw error;
      if (state.creationError instanceof PaymentRefusedError) throw state.creationError;
      const message = String((error as Error)?.message ?? error);
      if (/^Failed to create payment payload/.test(message)) {
        const cause = state.creationError ?? error;
        if (cause instanceof TrxRentError) throw cause;
        throw new PaymentSigningError(`Could not create the payment: ${redactText(String((cause as Error)?.message ?? cause))}`, cause);
      }
      if (/^Failed to parse payment requirements/.test(message)) {
        throw new TrxRentError({ code: 'INVALID_PAYMENT_CHALLENGE', message, status: 402, cause: error });
      }
      if (options.signal?.aborted) throw error;
      throw new ConnectionError(`${method} ${path} failed: ${redactText(message)}`, error);
    }

    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const settlement = readSettlement(response.headers);

    if (state.paymentSent && response.status === 402) {
      state.reservation?.release();
      const reason =
        settlement?.errorReason ??
        readChallengeError(response.headers) ??
        (typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : undefined) ??
        'payment_rejected';
      log(`  payment rejected: ${reason}`);
      throw new PaymentFailedError({
        reason,
        message: `${method} ${path}: the server rejected the payment (${reason})${settlement?.errorMessage ? `: ${settlement.errorMessage}` : ''}`,
        headers: response.headers,
        details: { settlement },
      });
    }

    let payment: PaymentReceipt | null = null;
    if (state.paymentSent) {
      if (settlement && settlement.success === false) {
        state.reservation?.release();
        throw new PaymentFailedError({ reason: settlement.errorReason ?? 'settlement_failed', status: response.status, headers: response.headers, details: { settlement } });
      }
      if (response.ok || settlement?.success) {
        state.reservation?.commit();
        payment = this.#receipt(state, settlement);
        log(`  paid ${payment.amount_usd} USD in ${payment.symbol} on ${networkLabel(payment.network)} (${payment.scheme}), tx ${payment.transaction ?? 'n/a'}`);
      } else {
        // An error answer without a settlement: x402 servers settle only after serving.
        state.reservation?.release();
      }
    }

    if (!response.ok || body === undefined || isErrorEnvelope(body)) {
      if (response.ok && body === undefined) {
        throw new TrxRentError({ code: 'INVALID_RESPONSE', message: `${method} ${path} answered ${response.status} without a JSON body`, status: response.status, headers: response.headers, details: { payment } });
      }
      if (response.status === 402) {
        // A 402 we did not pay (cannot normally happen: the wrapper pays every 402 or throws).
        throw new PaymentFailedError({ reason: readChallengeError(response.headers) ?? 'payment_required', headers: response.headers });
      }
      const error = errorFromBody(response.status, body, response.headers);
      if (payment) (error as { payment?: PaymentReceipt }).payment = payment;
      throw error;
    }
    const parsed = req.schema.safeParse(unwrapEnvelope(body));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TrxRentError({
        code: 'INVALID_RESPONSE',
        message: `${method} ${path}: unexpected response shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        status: response.status,
        headers: response.headers,
        details: { issues: parsed.error.issues, payment },
      });
    }
    return { data: parsed.data, payment, response };
  }

  /** Reads the challenge, applies every spend control, picks one offer, reserves its cost. */
  async #choose(response: Response, method: string, path: string, policy: SpendPolicy, state: CallState, log: (m: string) => void) {
    const challenge = await readChallenge(response);
    const evaluation = evaluateOffers(challenge.x402Version, challenge.accepts, policy);
    const offer = chooseOffer(evaluation, policy.prefer);
    if (!offer) {
      log(`  refused: ${evaluation.refused.map((r) => r.reason).join(', ') || 'no offers'}`);
      throw refusal(evaluation);
    }
    const reservation = policy.budget!.reserve(offer.costAtto);
    if (!reservation) throw refusal({ accepted: [], refused: [{ ...describeOffer(offer), reason: 'over_budget', message: 'the budget was used up by calls in flight' }] });
    state.offer = offer;
    state.reservation = reservation;
    state.payer = this.payers.find((p) => p.supports(offer));
    const quote: PaymentQuote = {
      method,
      path,
      x402Version: offer.x402Version,
      scheme: offer.scheme,
      network: offer.network,
      networkLabel: networkLabel(offer.network),
      asset: offer.asset,
      symbol: offer.token!.symbol,
      decimals: offer.token!.decimals,
      amount: offer.amount.toString(),
      amount_usd: attoToUsd(offer.costAtto),
      payTo: offer.payTo,
      payer: state.payer!.address,
    };
    log(`  402: paying ${quote.amount_usd} USD in ${quote.symbol} on ${quote.networkLabel} (${quote.scheme}, x402 v${quote.x402Version})`);
    if (this.#options.onPayment) {
      let answer: boolean | void;
      try {
        answer = await this.#options.onPayment(quote);
      } catch (error) {
        reservation.release();
        throw error;
      }
      if (answer === false) {
        reservation.release();
        throw new PaymentRefusedError('Payment declined by the caller', [{ ...describeOffer(offer), reason: 'declined', message: 'onPayment returned false' }]);
      }
    }
    state.limitLibrary?.(offer);
    // Register only the payer that pays this offer (loads its peers now, not before).
    await state.payer!.register(state.core!, state.context!);
  }

  #url(path: string, query?: Record<string, unknown>): string {
    return buildUrl(this.baseUrl, path, query);
  }

  #receipt(state: CallState, settlement: SettlementResponse | undefined): PaymentReceipt {
    const offer = state.offer!;
    const token = offer.token!;
    const amount = settlement?.amount && /^\d+$/.test(settlement.amount) ? BigInt(settlement.amount) : offer.amount;
    const fee = state.fee > 0n ? state.fee : offer.fee;
    const network = settlement?.network || offer.network;
    return {
      x402Version: offer.x402Version,
      scheme: offer.scheme,
      network,
      network_id: normaliseNetwork(network),
      asset: offer.asset,
      symbol: token.symbol,
      decimals: token.decimals,
      amount: amount.toString(),
      fee: fee.toString(),
      amount_usd: attoToUsd(tokenToAtto(amount + fee, token.decimals)),
      payTo: offer.payTo,
      payer: settlement?.payer || state.payer?.address || '',
      transaction: settlement?.transaction || null,
    };
  }
}

function config(message: string): TrxRentError {
  return new TrxRentError({ code: 'CONFIGURATION_ERROR', message });
}

function describeOffer(offer: Offer & { costAtto: bigint }) {
  return {
    scheme: offer.scheme,
    network: offer.network,
    asset: offer.asset,
    amount: (offer.amount + offer.fee).toString(),
    amount_usd: attoToUsd(offer.costAtto),
    payTo: offer.payTo,
  };
}

interface Challenge {
  x402Version: 1 | 2;
  accepts: unknown[];
  error?: string | undefined;
  extensions?: Record<string, unknown> | undefined;
}

/** The 402 challenge as @x402/core reads it: PAYMENT-REQUIRED header (v2), else a v1 JSON body. */
async function readChallenge(response: Response): Promise<Challenge> {
  const header = response.headers.get(HEADERS.PAYMENT_REQUIRED);
  const invalid = (why: string) =>
    new TrxRentError({ code: 'INVALID_PAYMENT_CHALLENGE', message: `The 402 response carries no usable x402 challenge: ${why}`, status: 402, headers: response.headers });
  if (header) {
    let decoded: unknown;
    try {
      decoded = decodeBase64Json(header);
    } catch {
      throw invalid('PAYMENT-REQUIRED is not base64 JSON');
    }
    const parsed = PaymentRequiredV2.safeParse(decoded);
    if (!parsed.success) throw invalid(`PAYMENT-REQUIRED: ${parsed.error.issues[0]?.message}`);
    return { x402Version: 2, accepts: parsed.data.accepts, error: parsed.data.error, extensions: parsed.data.extensions };
  }
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    throw invalid('no PAYMENT-REQUIRED header and no JSON body');
  }
  const parsed = PaymentRequiredV1.safeParse(body);
  if (!parsed.success) throw invalid('no PAYMENT-REQUIRED header and the body is not a v1 challenge');
  return { x402Version: 1, accepts: parsed.data.accepts, error: parsed.data.error };
}

function readChallengeError(headers: Headers): string | undefined {
  const header = headers.get(HEADERS.PAYMENT_REQUIRED);
  if (!header) return undefined;
  try {
    const error = (decodeBase64Json(header) as { error?: unknown })?.error;
    return typeof error === 'string' && error ? error : undefined;
  } catch {
    return undefined;
  }
}

function readSettlement(headers: Headers): SettlementResponse | undefined {
  const header = headers.get(HEADERS.PAYMENT_RESPONSE) ?? headers.get(HEADERS.X_PAYMENT_RESPONSE);
  if (!header) return undefined;
  try {
    const parsed = SettlementResponse.safeParse(decodeBase64Json(header));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

