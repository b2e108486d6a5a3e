/**
 * The client service: the SDK client a command talks to the API with. The same HttpClient and
 * resource classes as `TrxRent`, but each resource module is imported on first use
 * (`LazyClient`), with the run's fetch, its request limits (TRX_RENT_TIMEOUT,
 * TRX_RENT_MAX_RETRIES) and the credentials the config service resolved.
 * @module
 */
import type { RetryListener } from '../../http/attempts.js';
import type { HttpClient } from '../../http/client.js';
import type { BalanceResource } from '../../resources/balance.js';
import type { Deposits } from '../../resources/deposits.js';
import type { History } from '../../resources/history.js';
import type { Keys } from '../../resources/keys.js';
import type { Orders } from '../../resources/orders.js';
import type { Prices } from '../../resources/prices.js';
import type { Transactions } from '../../resources/transactions.js';
import type { Webhooks } from '../../resources/webhooks.js';
import type { Withdrawals } from '../../resources/withdrawals.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { parseDuration, parseInteger } from '../parse.js';
import type { CliRuntime } from '../runtime.js';
import { ENV, missingKeyProblem } from '../settings.js';
import type { ConfigService } from './config.js';

/** The SDK's resources, by the name `TrxRent` gives them. */
export interface Resources {
  prices: Prices;
  orders: Orders;
  balance: BalanceResource;
  history: History;
  deposits: Deposits;
  withdrawals: Withdrawals;
  keys: Keys;
  webhooks: Webhooks;
  transactions: Transactions;
}

const RESOURCE_LOADERS: { [K in keyof Resources]: () => Promise<new (http: HttpClient) => Resources[K]> } = {
  prices: () => import('../../resources/prices.js').then((m) => m.Prices),
  orders: () => import('../../resources/orders.js').then((m) => m.Orders),
  balance: () => import('../../resources/balance.js').then((m) => m.BalanceResource),
  history: () => import('../../resources/history.js').then((m) => m.History),
  deposits: () => import('../../resources/deposits.js').then((m) => m.Deposits),
  withdrawals: () => import('../../resources/withdrawals.js').then((m) => m.Withdrawals),
  keys: () => import('../../resources/keys.js').then((m) => m.Keys),
  webhooks: () => import('../../resources/webhooks.js').then((m) => m.Webhooks),
  transactions: () => import('../../resources/transactions.js').then((m) => m.Transactions),
};

/**
 * The SDK client the CLI uses: the same HttpClient and resource classes as `TrxRent`, but each
 * resource module is imported on first use (`await client.get('orders')`).
 */
export class LazyClient {
  readonly http: HttpClient;
  readonly #resources = new Map<keyof Resources, Promise<unknown>>();
  constructor(http: HttpClient) {
    this.http = http;
  }

  /** The resource `name` on this client (its module imported on the first call). */
  get<K extends keyof Resources>(name: K): Promise<Resources[K]> {
    let resource = this.#resources.get(name);
    if (!resource) {
      resource = RESOURCE_LOADERS[name]().then((Resource) => new Resource(this.http));
      this.#resources.set(name, resource);
    }
    return resource as Promise<Resources[K]>;
  }
}

/**
 * TRX_RENT_TIMEOUT (per attempt: `10s`, `1m` or seconds) and TRX_RENT_MAX_RETRIES (0-10) for
 * every request of the run; the SDK's defaults (30 s, 2 retries) otherwise. A malformed value
 * is a usage error.
 */
export function requestLimits(env: CliRuntime['env']): { timeoutMs?: number; maxRetries?: number } {
  const limits: { timeoutMs?: number; maxRetries?: number } = {};
  const timeout = env[ENV.timeout]?.trim();
  if (timeout) limits.timeoutMs = parseDuration(timeout, ENV.timeout) * 1000;
  const retries = env[ENV.maxRetries]?.trim();
  if (retries) limits.maxRetries = parseInteger(retries, ENV.maxRetries, { max: 10 });
  return limits;
}

/** The run's SDK clients: one per `auth` (settings resolved, credentials checked), and any for an explicit origin. */
export class ClientService {
  readonly #config: ConfigService;
  readonly #runtime: Pick<CliRuntime, 'env' | 'fetch'>;
  readonly #verbose: boolean;
  readonly #version: string;
  readonly #debug: (message: string) => void;
  readonly #onRetry: RetryListener | undefined;
  readonly #clients = new Map<boolean, Promise<LazyClient>>();
  #last: LazyClient | undefined;

  constructor(options: {
    config: ConfigService;
    runtime: Pick<CliRuntime, 'env' | 'fetch'>;
    verbose: boolean;
    /** The package version (in the user agent). */
    version: string;
    debug: (message: string) => void;
    /** Told of every retry's wait (the output's status line, or a `retrying` event). */
    onRetry?: RetryListener | undefined;
  }) {
    this.#onRetry = options.onRetry;
    this.#config = options.config;
    this.#runtime = options.runtime;
    this.#verbose = options.verbose;
    this.#version = options.version;
    this.#debug = options.debug;
  }

  /** The client made last (for the error report's balance hint and the base URL in hints). */
  get last(): LazyClient | undefined {
    return this.#last;
  }

  /**
   * One SDK resource (e.g. `await ctx.clients.api('orders')`) on the run's HTTP client. Only
   * that resource's module (and its schemas) is imported, not the whole client: `prices` never
   * loads the deposit signing code. `auth: false` for public endpoints (no key needed).
   */
  async api<K extends keyof Resources>(name: K, { auth = true }: { auth?: boolean } = {}): Promise<Resources[K]> {
    return (await this.client({ auth })).get(name);
  }

  /** The run's lazily-loaded SDK client (settings resolved, credentials checked). */
  client({ auth = true }: { auth?: boolean } = {}): Promise<LazyClient> {
    let client = this.#clients.get(auth);
    if (!client) {
      client = this.#makeClient(auth);
      this.#clients.set(auth, client);
    }
    return client;
  }

  async #makeClient(auth: boolean): Promise<LazyClient> {
    const s = await this.#config.settings(auth);
    if (!s.baseUrl) {
      throw new UsageError('No API base URL', 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock', 'CONFIGURATION_ERROR');
    }
    if (auth && !s.apiKey) {
      const { message, hint } = missingKeyProblem(s);
      throw new CliError('UNAUTHORIZED', message, { exitCode: EXIT.AUTH, hint });
    }
    return this.clientFor(s.baseUrl.value, s.apiKey?.value);
  }

  /** An SDK client for an explicit origin and key (the demo's embedded mock, `login`'s check). */
  async clientFor(baseUrl: string, apiKey: string | undefined, extra: { maxRetries?: number } = {}): Promise<LazyClient> {
    const { HttpClient } = await import('../../http/client.js');
    const http = new HttpClient({
      baseUrl,
      // '' (not undefined): the SDK would fall back to process.env; the CLI reads only its runtime's env.
      apiKey: apiKey ?? '',
      fetch: this.#runtime.fetch,
      logLevel: this.#verbose ? 'debug' : 'off',
      headers: { 'user-agent': `trx-rent-cli/${this.#version}` },
      // A person (or a script) should not sit silently through a long Retry-After: fail with
      // exit code 5 and the wait in the hint instead.
      retry: { maxRetryAfterMs: 10_000 },
      onRetry: this.#onRetry,
      ...this.requestLimits(),
      ...extra,
      ...(this.#verbose ? { logLevel: 'debug' as const, logger: { debug: (m: string) => this.#debug(m) } } : {}),
    });
    const client = new LazyClient(http);
    this.#last = client;
    return client;
  }

  /** The run's retry listener (the output's status line), for the other clients a command makes (the TRON node, x402). */
  get onRetry(): RetryListener | undefined {
    return this.#onRetry;
  }

  /** The run's request limits (see {@link requestLimits}). */
  requestLimits(): { timeoutMs?: number; maxRetries?: number } {
    return requestLimits(this.#runtime.env);
  }
}
