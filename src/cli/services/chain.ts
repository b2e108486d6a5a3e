/**
 * The chain service: `transfers` and `chain` handles for the commands that read or write the TRON
 * chain (`send`, `ensure`, `rules`, `tx`), the TRON node they read (flag > environment > profile >
 * a reference mock's own node > TronGrid, detecting a reference mock by its `/__mock/state`),
 * and the file store that keeps each signed transfer with its idempotency key.
 * @module
 */
import { join } from 'node:path';
import type { Chain, Transfers } from '../../tron/facade.js';
import type { TransferStore } from '../../tron/identity.js';
import type { Output } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { ENV, type Source, checkBaseUrl, fromEnv } from '../settings.js';
import type { ClientService, LazyClient } from './client.js';
import type { ConfigService } from './config.js';

/** `client.transfers` and `client.chain` for a command, and the node they read. */
export interface ChainHandles {
  transfers: Transfers;
  chain: Chain;
  node: string;
}

/** The TRON node setting: its URL (undefined: TronGrid), where it came from, and TronGrid's key. */
export interface TronNodeSetting {
  url: string | undefined;
  source: Source;
  apiKey: string | undefined;
}

/** The run's TRON node and the handles that read it. */
export class ChainService {
  readonly #config: ConfigService;
  readonly #clients: ClientService;
  readonly #runtime: Pick<CliRuntime, 'env' | 'fetch' | 'configDir'>;
  readonly #mock: boolean;
  readonly #out: Output;
  readonly #debug: (message: string) => void;
  #node: TronNodeSetting | undefined;

  constructor(options: {
    config: ConfigService;
    clients: ClientService;
    runtime: Pick<CliRuntime, 'env' | 'fetch' | 'configDir'>;
    /** `--mock`: the profile's node is not read. */
    mock: boolean;
    out: Output;
    debug: (message: string) => void;
  }) {
    this.#config = options.config;
    this.#clients = options.clients;
    this.#runtime = options.runtime;
    this.#mock = options.mock;
    this.#out = options.out;
    this.#debug = options.debug;
  }

  /** The TRON node resolved so far (undefined before {@link tronNode}). */
  get resolvedNode(): TronNodeSetting | undefined {
    return this.#node;
  }

  /**
   * `client.transfers` and `client.chain` on the run's client, reading the TRON node of
   * {@link tronNode} (the `--tron-node` flag given as `node`).
   */
  async handles(node?: string): Promise<ChainHandles> {
    const client = await this.#clients.client();
    const setting = await this.tronNode(node, client);
    return this.handlesFor(client, setting.url, { apiKey: setting.apiKey, store: await this.transferStore() });
  }

  /**
   * The TRON node every command that reads the chain uses: `--tron-node` > TRX_RENT_TRON_NODE >
   * the profile's tron_node > the mock's own node when the base URL is a reference mock (the
   * embedded one, the running `trx-rent mock`, or any base URL whose /__mock/state answers, as
   * `status` detects one; said on stderr) > TronGrid. TronGrid's key (TRX_RENT_TRON_NODE_API_KEY)
   * goes to a node that was set, never to a mock found this way.
   */
  async tronNode(flag?: string, client?: LazyClient, say = true): Promise<TronNodeSetting> {
    if (this.#node) return this.#node;
    const { env } = this.#runtime;
    const apiKey = env[ENV.tronNodeApiKey]?.trim() || undefined;
    let found: TronNodeSetting | undefined;
    if (flag) found = { url: flag, source: { kind: 'flag', flag: '--tron-node' }, apiKey };
    const fromEnvironment = fromEnv(env, ENV.tronNode);
    if (!found && fromEnvironment) found = { url: fromEnvironment.value, source: fromEnvironment.source, apiKey };
    if (!found && !this.#mock) {
      const profile = await this.#config.profile().catch(() => undefined);
      if (profile?.settings?.tron_node) found = { url: profile.settings.tron_node, source: { kind: 'profile', profile: profile.name }, apiKey };
    }
    if (!found) {
      const connection = await this.#config.settings(false);
      const base = connection.baseUrl;
      if (base && (base.source.kind === 'mock' || base.source.kind === 'running-mock')) {
        found = { url: base.value, source: base.source, apiKey: undefined };
      } else if (base && (await isReferenceMock(client ?? (await this.#clients.clientFor(base.value, undefined, { maxRetries: 0 }))))) {
        found = { url: base.value, source: { kind: 'reference-mock' }, apiKey: undefined };
      }
      if (found && say)
        this.#out.info(
          this.#out.e.dim(`TRON node: the mock's own at ${found.url} (the base URL is a reference mock; --tron-node or ${ENV.tronNode} to read another)`),
        );
    }
    found ??= { url: undefined, source: { kind: 'default' }, apiKey };
    if (found.url) {
      checkBaseUrl({ value: found.url, source: found.source });
    }
    this.#node = found;
    return found;
  }

  /**
   * Where `send` keeps each signed transfer with its idempotency key: `transfers/` under the
   * config directory (one 0600 file per key), so a re-run with `--idempotency-key` lands the
   * transaction signed before instead of signing a new one.
   */
  transfersDir(): Promise<string> {
    return import('../config.js').then((m) => join(this.#runtime.configDir || m.defaultConfigDir(), 'transfers'));
  }

  /** A `postgres://` store for the transfer records (`send --store`), over `TRX_RENT_STORE`. */
  useStore(url: string | undefined): void {
    this.#store = url;
  }

  #store: string | undefined;

  /**
   * The CLI's transfer store: the PostgreSQL store of `--store` or `TRX_RENT_STORE` (shared by
   * processes on several hosts), else the file store under the config directory (see {@link transfersDir}).
   */
  async transferStore(): Promise<TransferStore> {
    const { fileTransferStore, storeTransfers } = await import('../../tron/transfer-store.js');
    const url = this.#store ?? this.#runtime.env.TRX_RENT_STORE;
    if (url) return storeTransfers(url);
    return fileTransferStore(await this.transfersDir());
  }

  /** `transfers` and `chain` on an explicit client and node (the demo's embedded mock). */
  async handlesFor(
    client: LazyClient,
    node: string | undefined,
    options: { apiKey?: string | undefined; store?: TransferStore | undefined } = {},
  ): Promise<ChainHandles> {
    const { Chain, ChainAccess, Transfers } = await import('../../tron/facade.js');
    const { DEFAULT_TRON_NODE } = await import('../../tron/node.js');
    const { apiKey, store } = options;
    const access = new ChainAccess(
      client.http,
      { baseUrl: node, fetch: this.#runtime.fetch, apiKey, clock: client.http.clock, onRetry: this.#clients.onRetry, ...this.#clients.requestLimits() },
      store,
    );
    this.#debug(`TRON node ${node ?? DEFAULT_TRON_NODE}${apiKey ? ` (with ${ENV.tronNodeApiKey})` : ''}`);
    return { transfers: new Transfers(access), chain: new Chain(access), node: node ?? DEFAULT_TRON_NODE };
  }
}

/** Whether the API at the client's base URL is the reference mock (its public /__mock/state answers). */
async function isReferenceMock(client: LazyClient): Promise<boolean> {
  const { unknown: anything } = await import('zod');
  return client.http
    .request({ method: 'GET', path: '/__mock/state', schema: anything(), auth: false, options: { maxRetries: 0, timeoutMs: 5_000 } })
    .then((r) => Boolean(r.data && typeof r.data === 'object' && 'seed' in r.data && 'platform_address' in r.data))
    .catch(() => false);
}
