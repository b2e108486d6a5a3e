/**
 * A small client for a TRON full node's HTTP API (`/wallet/*`, java-tron shapes), without
 * tronweb: the six calls renting-for-a-transfer needs, plus the current block for TAPOS. It
 * runs on the SDK's transport (deadline per attempt, no redirects, bounded body), retries the
 * read calls on network faults and 408/429/5xx with backoff, never retries a broadcast, and
 * sends no credentials: a node is another origin than the account API.
 *
 * Responses are read leniently (unknown fields kept, absent numbers are 0: java-tron leaves
 * zero values out), and a node's `{ Error: "…" }` answer becomes a TrxRentError `NODE_ERROR`.
 * @module
 */
import * as z from 'zod/mini';
import { ConnectionError, TimeoutError, TrxRentError, ValidationError } from '../errors/index.js';
import { DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, type RetryPolicy, backoffDelay } from '../http/retry.js';
import { Transport } from '../http/transport.js';
import { isTronAddress } from '../utils/address.js';
import { type Clock, systemClock } from '../utils/clock.js';
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
  /** The clock of the retry backoff (the SDK client's clock). @default systemClock */
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
 * const node = await client.resources.node();
 * const resource = await node.getAccountResource('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
 * ```
 */
export class TronNode {
  /** The node's base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #clock: Clock;

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
    this.#clock = options.clock ?? systemClock;
    this.#transport = new Transport({ fetch: options.fetch, maxResponseBytes: options.maxResponseBytes ?? 2 * 1024 * 1024 });
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
    if (result.result?.result !== true) {
      const message = result.result?.message ? hexText(result.result.message) : 'no result';
      throw nodeError(`triggerconstantcontract ${call.functionSelector} failed: ${result.result?.code ?? 'ERROR'} (${message})`, { code: result.result?.code });
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

  /** `gettransactioninfobyid`: the receipt, or undefined while the transaction is in no block. */
  async getTransactionInfo(txId: string, options?: NodeCallOptions): Promise<TransactionInfo | undefined> {
    const info = await this.#call('gettransactioninfobyid', { value: checkTxId(txId, 'txId') }, TransactionInfo, true, options);
    return info.id && info.blockNumber !== undefined ? info : undefined;
  }

  async #call<S extends z.ZodMiniType>(
    method: string,
    body: unknown,
    schema: S,
    safe: boolean,
    options: NodeCallOptions = {},
    api: 'wallet' | 'walletsolidity' = 'wallet',
  ): Promise<z.output<S>> {
    const url = `${this.baseUrl}/${api}/${method}`;
    const label = `POST /${api}/${method}`;
    const maxRetries = safe ? this.#policy.maxRetries : 0;
    const init = {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      signal: options.signal,
      label,
    };
    for (let attempt = 0; ; attempt++) {
      let status: number;
      let text: string;
      try {
        const exchange = await this.#transport.send(url, init);
        status = exchange.response.status;
        text = exchange.text;
      } catch (failure) {
        if (!(failure instanceof ConnectionError || failure instanceof TimeoutError) || attempt >= maxRetries) throw failure;
        await this.#clock.sleep(backoffDelay(attempt, this.#policy), options.signal);
        continue;
      }
      if (status < 200 || status > 299) {
        if (RETRYABLE_STATUSES.has(status) && attempt < maxRetries) {
          await this.#clock.sleep(backoffDelay(attempt, this.#policy), options.signal);
          continue;
        }
        throw nodeError(`${label} answered ${status}`, { status, method });
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
  }
}

/** A node's hex-encoded message as text; text that is not hex stays as it is. */
function hexText(value: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(value)) return value;
  const bytes = new Uint8Array(value.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes).replace(/[^\x20-\x7e]/g, '?');
}
