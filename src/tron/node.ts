/**
 * A small client for a TRON full node's HTTP API (`/wallet/*`, java-tron shapes), without
 * tronweb: the six calls renting-for-a-transfer needs, plus the current block for TAPOS. It
 * runs on the SDK's transport and its one retry loop (`http/attempts.ts`: deadline per attempt,
 * no redirects, bounded body, reads retried on network faults and 408/429/5xx with backoff,
 * Retry-After honoured), never retries a broadcast, and never sends the account API's
 * credentials: a node is another origin. The only credential it sends is the node's own
 * (`apiKey`: TronGrid's `TRON-PRO-API-KEY`, or `headers`), to the node's origin and nowhere
 * else (redirects are refused, so nothing follows a `Location`).
 *
 * Responses are read leniently with the schemas of `node-answers.ts` (unknown fields kept,
 * absent numbers are 0: java-tron leaves zero values out), and a node's `{ Error: "…" }` answer
 * becomes a TrxRentError `NODE_ERROR`. A node that echoes its credential back (the API key in an
 * error body) never gets it into an error, a returned message or a log: the node's header values
 * are masked in every answer's text and every error (`src/internal/redact.ts`). A simulation (`triggerconstantcontract`) is failed in
 * each form java-tron gives one (see {@link simulationFailure}): that is `SIMULATION_FAILED`,
 * with the decoded revert reason.
 * @module
 */
import type * as z from 'zod/mini';
import { TrxRentError, ValidationError } from '../errors/index.js';
import { type RetryListener, sendWithRetries } from '../http/attempts.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, parseRetryAfter } from '../http/retry.js';
import { Transport } from '../http/transport.js';
import { insecureTransport } from '../http/url.js';
import type { Clock } from '../utils/clock.js';
import { isTronAddress } from '../utils/address.js';
import { englishIssues } from '../schemas/issues.js';
import { redactSecrets, scrubError } from '../internal/redact.js';
import {
  AccountResource,
  BroadcastResult,
  ChainParameters,
  ConstantCallResult,
  hexText,
  NodeAccount,
  NowBlock,
  simulationFailure,
  TransactionInfo,
  BlockTransactionInfos,
} from './node-answers.js';

/** The public TronGrid full node, the default of {@link TronNodeOptions.baseUrl}. */
export const DEFAULT_TRON_NODE = 'https://api.trongrid.io';

/** Options of {@link TronNode}. */
export interface TronNodeOptions {
  /**
   * The full node's base URL (its HTTP API serves `/wallet/*` under it). A URL with user info
   * is refused: nothing secret is ever sent to a node.
   * @default 'https://api.trongrid.io'
   */
  baseUrl?: string | undefined;
  /** A fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Per-attempt timeout, ms. @default 15000 */
  timeoutMs?: number | undefined;
  /** Retries of a read call after the first attempt. Broadcasts are never retried. @default 2 */
  maxRetries?: number | undefined;
  /** Backoff tuning. @default { baseDelayMs: 500, maxDelayMs: 8000 } */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>> | undefined;
  /** Largest response read, bytes. @default 2 MiB */
  maxResponseBytes?: number | undefined;
  /**
   * TronGrid's API key, sent as `TRON-PRO-API-KEY` to the node's origin only (never to the
   * account API, never across a redirect: redirects are refused). Plain http is refused for it
   * except to a loopback host.
   */
  apiKey?: string | undefined;
  /**
   * More headers for the node (another provider's key header, say), sent to its origin only,
   * like `apiKey`. `content-type` and `accept` stay the client's own.
   */
  headers?: Record<string, string> | undefined;
  /** Whose time the retry backoff waits on. @default systemClock */
  clock?: Clock | undefined;
  /** Told before each retry of a read waits (a 429 or 503 answer, a network fault). @default undefined */
  onRetry?: RetryListener | undefined;
}

/** Per-call options of the node client. */
export interface NodeCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** What an address can spend now, from `getaccountresource`. */
export interface Spendable {
  /** Energy left: EnergyLimit - EnergyUsed (staked and delegated to it). */
  energy: number;
  /** Bandwidth left: the free daily allowance plus staked/delegated bandwidth, minus what was used. */
  bandwidth: number;
  /** The free part of `bandwidth` (only whole transactions fit: a transfer uses it or burns). */
  freeBandwidth: number;
}

/** Energy and bandwidth an address can spend now. */
export function spendable(r: AccountResource): Spendable {
  const freeBandwidth = Math.max(0, r.freeNetLimit - r.freeNetUsed);
  const staked = Math.max(0, r.NetLimit - r.NetUsed);
  return { energy: Math.max(0, r.EnergyLimit - r.EnergyUsed), bandwidth: freeBandwidth + staked, freeBandwidth };
}

function nodeError(message: string, details?: Record<string, unknown>): TrxRentError {
  return new TrxRentError({ code: 'NODE_ERROR', message, details });
}

function checkAddress(value: string, field: string): string {
  if (typeof value !== 'string' || !isTronAddress(value)) {
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: `${field} is not a valid TRON address: ${String(value)}`, details: { field } });
  }
  return value;
}

/** The hex of a 64-char hex id (with or without 0x), or a VALIDATION_ERROR naming `field`. */
function checkTxId(value: string, field: string): string {
  const hex = typeof value === 'string' ? value.replace(/^0x/i, '') : '';
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: `${field} must be 64 hex characters`, details: { field } });
  return hex.toLowerCase();
}

/**
 * A TRON full node's HTTP API. Addresses go and come back in base58 (`visible: true`).
 *
 * ```ts
 * import { TrxRent } from 'trx-rent';
 *
 * const client = new TrxRent({ tronNode: 'https://api.trongrid.io' });
 * const node = await client.chain.node();
 * const resource = await node.getAccountResource('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
 * ```
 */
export class TronNode {
  /** The node's base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #headers: Record<string, string>;
  readonly #clock: Clock | undefined;
  readonly #onRetry: RetryListener | undefined;
  /** The values this client sends as credentials (the API key, `headers`): masked wherever a node echoes them. */
  readonly #secrets: string[];

  constructor(options: TronNodeOptions = {}) {
    let url: URL;
    try {
      url = new URL(options.baseUrl ?? DEFAULT_TRON_NODE);
    } catch {
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `tronNode is not a URL: ${String(options.baseUrl)}` });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `tronNode must be an http(s) URL, not ${url.protocol}` });
    }
    if (url.username || url.password) {
      throw new TrxRentError({
        code: 'CONFIGURATION_ERROR',
        message: 'tronNode must not carry credentials (user:password@): nothing secret is sent to a node',
      });
    }
    url.search = '';
    url.hash = '';
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
    this.#transport = new Transport({ fetch: options.fetch, maxResponseBytes: options.maxResponseBytes ?? 2 * 1024 * 1024 });
    this.#clock = options.clock;
    this.#onRetry = options.onRetry;
    this.#headers = nodeHeaders(url, options);
    this.#secrets = Object.values(this.#headers);
  }

  /** `text` with the credentials masked (a no-op for the usual answer, which names none). */
  #clean(text: string): string {
    return this.#secrets.some((secret) => text.includes(secret)) ? redactSecrets(text, this.#secrets) : text;
  }

  /** The head block: its number and id (the reference block of a new transaction). */
  async getNowBlock(options?: NodeCallOptions): Promise<{ number: number; id: string; timestamp: number | undefined }> {
    const block = await this.#call('getnowblock', {}, NowBlock, true, options);
    return { number: block.block_header.raw_data.number, id: block.blockID.toLowerCase(), timestamp: block.block_header.raw_data.timestamp };
  }

  /**
   * The solidified head (`/walletsolidity/getnowblock`): the newest block no fork can undo. A
   * transaction in no block once this block's timestamp has passed its expiration never lands.
   */
  async getSolidifiedBlock(options?: NodeCallOptions): Promise<{ number: number; id: string; timestamp: number | undefined }> {
    const block = await this.#call('getnowblock', {}, NowBlock, true, options, 'walletsolidity');
    return { number: block.block_header.raw_data.number, id: block.blockID.toLowerCase(), timestamp: block.block_header.raw_data.timestamp };
  }

  /** `getaccount`: balance (SUN) and the rest of the account; an unknown address gives an empty account. */
  async getAccount(address: string, options?: NodeCallOptions): Promise<NodeAccount> {
    return this.#call('getaccount', { address: checkAddress(address, 'address'), visible: true }, NodeAccount, true, options);
  }

  /** `getaccountresource`: energy and bandwidth limits and use (`spendable` turns it into what can be spent now). */
  async getAccountResource(address: string, options?: NodeCallOptions): Promise<AccountResource> {
    return this.#call('getaccountresource', { address: checkAddress(address, 'address'), visible: true }, AccountResource, true, options);
  }

  /**
   * `triggerconstantcontract`: run a contract call without a transaction (what it would return
   * and the energy it would use). `parameter` is the ABI-encoded arguments, hex without selector.
   */
  async triggerConstantContract(
    call: { owner: string; contract: string; functionSelector: string; parameter: string },
    options?: NodeCallOptions,
  ): Promise<ConstantCallResult> {
    const body = {
      owner_address: checkAddress(call.owner, 'owner'),
      contract_address: checkAddress(call.contract, 'contract'),
      function_selector: call.functionSelector,
      parameter: call.parameter,
      visible: true,
    };
    const result = await this.#call('triggerconstantcontract', body, ConstantCallResult, true, options);
    const failure = simulationFailure(result);
    if (failure) {
      throw this.#scrub(
        new TrxRentError({
          code: 'SIMULATION_FAILED',
          message: `triggerconstantcontract ${call.functionSelector} ${failure.reverted ? 'reverted' : 'failed'}: ${failure.node_code && failure.node_code !== failure.reason ? `${failure.node_code} (${failure.reason})` : failure.reason}`,
          details: { method: 'triggerconstantcontract', function_selector: call.functionSelector, ...failure },
        }),
      );
    }
    return result;
  }

  /** `getchainparameters` as a map, e.g. `getEnergyFee` (SUN per energy) and `getTransactionFee` (SUN per bandwidth byte). */
  async getChainParameters(options?: NodeCallOptions): Promise<Map<string, number>> {
    const { chainParameter } = await this.#call('getchainparameters', {}, ChainParameters, true, options);
    const out = new Map<string, number>();
    for (const p of chainParameter) {
      const value = p.value === undefined ? 0 : Number(p.value);
      if (Number.isSafeInteger(value)) out.set(p.key, value);
    }
    return out;
  }

  /**
   * `broadcasttransaction`: hand a signed transaction to the node. Never retried. A refusal
   * (`result` not true) is returned as is, with `message` decoded from hex when it is hex.
   */
  async broadcastTransaction(signed: Record<string, unknown>, options?: NodeCallOptions): Promise<BroadcastResult> {
    const result = await this.#call('broadcasttransaction', signed, BroadcastResult, false, options);
    return result.message ? { ...result, message: this.#clean(hexText(result.message)) } : result;
  }

  /**
   * `gettransactioninfobyid`: the receipt, or undefined while the transaction is in no block.
   * With `solidified: true` it asks `/walletsolidity/gettransactioninfobyid`: undefined until the
   * block holding it is solidified (irreversible; about 19 blocks, ~1 min, behind the head).
   */
  async getTransactionInfo(txId: string, options?: NodeCallOptions & { solidified?: boolean | undefined }): Promise<TransactionInfo | undefined> {
    const path = options?.solidified ? 'walletsolidity' : 'wallet';
    const info = await this.#call('gettransactioninfobyid', { value: checkTxId(txId, 'txId') }, TransactionInfo, true, options, path);
    if (!info.id || info.blockNumber === undefined) return undefined;
    return info.resMessage ? { ...info, resMessage: this.#clean(hexText(info.resMessage)) } : info;
  }

  /**
   * `gettransactioninfobyblocknum`: the receipts (with their event logs) of every transaction in
   * block `num`, one request per block; `[]` for an empty block or one beyond the node's newest.
   * With `solidified: true` the solidity node answers (only solidified blocks).
   */
  async getTransactionInfoByBlockNum(num: number, options?: NodeCallOptions & { solidified?: boolean | undefined }): Promise<BlockTransactionInfos> {
    if (!Number.isSafeInteger(num) || num < 0)
      throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'num must be a block height', details: { field: 'num' } });
    return this.#call('gettransactioninfobyblocknum', { num }, BlockTransactionInfos, true, options, options?.solidified ? 'walletsolidity' : 'wallet');
  }

  async #call<S extends z.ZodMiniType>(
    method: string,
    body: unknown,
    schema: S,
    safe: boolean,
    options: NodeCallOptions = {},
    api: 'wallet' | 'walletsolidity' = 'wallet',
  ): Promise<z.output<S>> {
    const label = `POST /${api}/${method}`;
    return sendWithRetries({
      transport: this.#transport,
      url: `${this.baseUrl}/${api}/${method}`,
      init: {
        method: 'POST',
        headers: { ...this.#headers, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs ?? this.#timeoutMs,
        signal: options.signal,
        label,
      },
      policy: this.#policy,
      maxRetries: this.#policy.maxRetries,
      // A broadcast is never sent twice: a lost answer may hide an accepted transaction.
      canRetry: safe,
      clock: this.#clock,
      onRetry: this.#onRetry,
      finish: ({ response, text }) => readAnswer(response, this.#clean(text), schema, label, method),
    }).catch((error: unknown) => {
      throw this.#scrub(error);
    });
  }

  /** An error with the credentials masked in its message and details. */
  #scrub<E>(error: E): E {
    return this.#secrets.length ? scrubError(error, this.#secrets) : error;
  }
}

/** A node's answer: 2xx JSON parsed with `schema`; otherwise a NODE_ERROR (with Retry-After for the retry loop). */
function readAnswer<S extends z.ZodMiniType>(response: Response, text: string, schema: S, label: string, method: string): z.output<S> {
  const status = response.status;
  if (status < 200 || status > 299) {
    const error = nodeError(`${label} answered ${status}`, { status, method });
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    if (retryAfterMs !== undefined) Object.defineProperty(error, 'retryAfterMs', { value: retryAfterMs });
    throw error;
  }
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw nodeError(`${label}: the node's answer is not JSON`, { method });
  }
  if (json && typeof json === 'object' && typeof (json as { Error?: unknown }).Error === 'string') {
    throw nodeError(`${label}: ${(json as { Error: string }).Error.slice(0, 300)}`, { method });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = englishIssues(schema, json)[0];
    throw nodeError(`${label}: unexpected answer (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`, { method });
  }
  return parsed.data;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The node's own headers (`apiKey` as TRON-PRO-API-KEY, plus `headers`), checked once. */
function nodeHeaders(url: URL, options: TronNodeOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new TrxRentError({
        code: 'CONFIGURATION_ERROR',
        message: `tronNodeHeaders: ${JSON.stringify(name)} is not a valid header`,
        details: { field: 'tronNodeHeaders' },
      });
    }
    const lower = name.toLowerCase();
    if (lower !== 'accept' && lower !== 'content-type') out[lower] = value;
  }
  if (options.apiKey !== undefined) {
    const key = options.apiKey.trim();
    if (!key || /[\s\0]/.test(key))
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'tronNodeApiKey is empty or has spaces', details: { field: 'tronNodeApiKey' } });
    out['tron-pro-api-key'] = key;
  }
  if (Object.keys(out).length) {
    const refused = insecureTransport(url, "the TRON node's API key", false);
    if (refused) throw refused;
  }
  return out;
}
