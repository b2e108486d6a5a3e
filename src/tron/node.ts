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
 * Responses are read leniently (unknown fields kept, absent numbers are 0: java-tron leaves
 * zero values out), and a node's `{ Error: "…" }` answer becomes a TrxRentError `NODE_ERROR`.
 * A simulation (`triggerconstantcontract`) is failed in each form java-tron gives one (see
 * {@link simulationFailure}): that is `SIMULATION_FAILED`, with the decoded revert reason.
 * @module
 */
import * as z from 'zod/mini';
import { TrxRentError, ValidationError } from '../errors/index.js';
import { decodeErrorString } from '../protocol/abi.js';
import { sendWithRetries } from '../http/attempts.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, parseRetryAfter } from '../http/retry.js';
import { Transport } from '../http/transport.js';
import { insecureTransport } from '../http/url.js';
import type { Clock } from '../utils/clock.js';
import { isTronAddress } from '../utils/address.js';
import { englishIssues } from '../schemas/issues.js';

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
}

/** Per-call options of the node client. */
export interface NodeCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

const num = z.pipe(
  z.optional(z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+$/)), z.transform(Number))])),
  z.transform((v: number | undefined) => v ?? 0),
);

/** `getaccountresource`: what an address can spend (java-tron omits zero values; they read as 0 here). */
export const AccountResource = z.looseObject({
  freeNetUsed: num,
  freeNetLimit: num,
  NetUsed: num,
  NetLimit: num,
  EnergyUsed: num,
  EnergyLimit: num,
  TotalEnergyLimit: num,
  TotalEnergyWeight: num,
});
export type AccountResource = z.infer<typeof AccountResource>;

/** `getaccount`: the account (empty object when it does not exist on chain). */
export const NodeAccount = z.looseObject({
  address: z.optional(z.string()),
  balance: num,
  create_time: num,
});
export type NodeAccount = z.infer<typeof NodeAccount>;

/** `triggerconstantcontract`: a simulated call, its result words and the energy it used. */
export const ConstantCallResult = z.looseObject({
  result: z.optional(z.looseObject({ result: z.optional(z.boolean()), code: z.optional(z.string()), message: z.optional(z.string()) })),
  energy_used: num,
  energy_penalty: num,
  constant_result: z.optional(z.array(z.string())),
  transaction: z.optional(z.looseObject({ ret: z.optional(z.array(z.looseObject({ ret: z.optional(z.string()), contractRet: z.optional(z.string()) }))) })),
});
export type ConstantCallResult = z.infer<typeof ConstantCallResult>;

/** `getchainparameters`: the chain's fee and limit parameters. */
export const ChainParameters = z.looseObject({
  chainParameter: z._default(z.array(z.looseObject({ key: z.string(), value: z.optional(z.union([z.number(), z.string()])) })), []),
});

/** `broadcasttransaction`: accepted (`result: true`) or a code and a hex-encoded message. */
export const BroadcastResult = z.looseObject({
  result: z.optional(z.boolean()),
  txid: z.optional(z.string()),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
});
export type BroadcastResult = z.infer<typeof BroadcastResult>;

/** `gettransactioninfobyid`: the receipt once the transaction is in a block (empty object before). */
export const TransactionInfo = z.looseObject({
  id: z.optional(z.string()),
  blockNumber: z.optional(z.number()),
  blockTimeStamp: z.optional(z.number()),
  fee: num,
  result: z.optional(z.string()),
  resMessage: z.optional(z.string()),
  receipt: z.optional(
    z.looseObject({
      energy_usage: num,
      energy_usage_total: num,
      energy_fee: num,
      origin_energy_usage: num,
      net_usage: num,
      net_fee: num,
      result: z.optional(z.string()),
    }),
  ),
});
export type TransactionInfo = z.infer<typeof TransactionInfo>;

/** `getnowblock`: the head block (its id and number are the TAPOS reference of a new transaction). */
export const NowBlock = z.looseObject({
  blockID: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/)),
  block_header: z.looseObject({ raw_data: z.looseObject({ number: z.number(), timestamp: z.optional(z.number()) }) }),
});
export type NowBlock = z.infer<typeof NowBlock>;

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
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new ValidationError({ code: 'VALIDATION_ERROR', message: `${field} must be 64 hex characters`, details: { field } });
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
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'tronNode must not carry credentials (user:password@): nothing secret is sent to a node' });
    }
    url.search = '';
    url.hash = '';
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
    this.#transport = new Transport({ fetch: options.fetch, maxResponseBytes: options.maxResponseBytes ?? 2 * 1024 * 1024 });
    this.#clock = options.clock;
    this.#headers = nodeHeaders(url, options);
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
      throw new TrxRentError({
        code: 'SIMULATION_FAILED',
        message: `triggerconstantcontract ${call.functionSelector} ${failure.reverted ? 'reverted' : 'failed'}: ${failure.node_code && failure.node_code !== failure.reason ? `${failure.node_code} (${failure.reason})` : failure.reason}`,
        details: { method: 'triggerconstantcontract', function_selector: call.functionSelector, ...failure },
      });
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
    return result.message ? { ...result, message: hexText(result.message) } : result;
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
    return info.resMessage ? { ...info, resMessage: hexText(info.resMessage) } : info;
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
      finish: ({ response, text }) => readAnswer(response, text, schema, label, method),
    });
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
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `tronNodeHeaders: ${JSON.stringify(name)} is not a valid header`, details: { field: 'tronNodeHeaders' } });
    }
    const lower = name.toLowerCase();
    if (lower !== 'accept' && lower !== 'content-type') out[lower] = value;
  }
  if (options.apiKey !== undefined) {
    const key = options.apiKey.trim();
    if (!key || /[\s\0]/.test(key)) throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'tronNodeApiKey is empty or has spaces', details: { field: 'tronNodeApiKey' } });
    out['tron-pro-api-key'] = key;
  }
  if (Object.keys(out).length) {
    const refused = insecureTransport(url, "the TRON node's API key", false);
    if (refused) throw refused;
  }
  return out;
}

/** Why a simulation failed, read from java-tron's answer. */
export interface SimulationFailure {
  /** True when the contract reverted (REVERT opcode), false for other failures (validation, out of energy…). */
  reverted: boolean;
  /** The revert reason (`Error(string)`), java-tron's message, or the code: what a person reads. */
  reason: string;
  /** java-tron's code (`result.code`, e.g. CONTRACT_VALIDATE_ERROR) or the transaction's `contractRet` (REVERT, OUT_OF_ENERGY). */
  node_code: string | undefined;
  /** Energy used up to the failure, when the node says. */
  energy_used: number;
}

/**
 * Whether a `triggerconstantcontract` answer is a failed simulation, in any of java-tron's forms
 * (`Wallet.triggerConstantContract` / `callConstantContract`, `VMActuator.execute`):
 * - a refusal before running: `result.code` (CONTRACT_VALIDATE_ERROR, OTHER_ERROR…) or
 *   `result.result` not true, the text in `result.message` (hex);
 * - a revert: `result.result` stays **true**, `result.message` is hex "REVERT opcode executed",
 *   `transaction.ret[0].ret` is FAILED, and `constant_result[0]` holds the contract's
 *   `Error(string)` data when it gave a reason (`Panic(uint256)` for an assert);
 * - any other VM failure: `transaction.ret[0].ret` FAILED with the runtime error in `message`.
 * Undefined when the call succeeded.
 */
export function simulationFailure(answer: ConstantCallResult): SimulationFailure | undefined {
  const res = answer.result;
  const message = res?.message ? hexText(res.message) : undefined;
  const ret = answer.transaction?.ret?.[0];
  const revertData = revertReason(answer.constant_result?.[0]);
  const reverted = /REVERT/i.test(message ?? '') || ret?.contractRet === 'REVERT' || revertData !== undefined;
  const failed = res?.result !== true || res?.code !== undefined || ret?.ret === 'FAILED' || reverted;
  if (!failed) return undefined;
  const nodeCode = res?.code ?? ret?.contractRet;
  return {
    reverted,
    reason: revertData ?? message ?? nodeCode ?? 'the node reports no result',
    node_code: nodeCode,
    energy_used: answer.energy_used,
  };
}

/**
 * The text of a revert's return data: `Error(string)` decoded by the one ABI decoder
 * (`protocol/abi.ts`), `Panic(uint256)` (4e487b71) as its code; undefined for anything else (a
 * plain return value, empty data).
 */
export function revertReason(data: string | undefined): string | undefined {
  const hex = (data ?? '').replace(/^0x/i, '').toLowerCase();
  if (hex.startsWith('4e487b71') && hex.length >= 8 + 64) return `Panic(0x${BigInt(`0x${hex.slice(8, 72)}`).toString(16)})`;
  const reason = decodeErrorString(hex);
  if (reason === undefined) return undefined;
  return reason.replace(/[^\x20-\x7e]/g, '?') || 'reverted without a reason';
}

/** A node's hex-encoded message as text; text that is not hex stays as it is. */
function hexText(value: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(value)) return value;
  const bytes = new Uint8Array(value.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes).replace(/[^\x20-\x7e]/g, '?');
}
