/**
 * The config service: the profile store (opened on first use), the profile in effect and its
 * defaults, and the run's connection settings (base URL and API key, flag > environment >
 * profile, each with its source) through `../settings.ts`'s resolver. A base URL taken from the
 * one `trx-rent mock` running here is named on stderr: for a run that spends, in every output
 * mode and before anything is spent; for one that only reads, as a note for people.
 * @module
 */
import type { ConfigStore, ProfileSettings } from '../config.js';
import type { GlobalOptions } from '../options.js';
import type { Output } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { type Connection, SettingsResolver, describeSource } from '../settings.js';
import type { MockHandle } from './mock.js';

/** Profiles and settings for one run. */
export class ConfigService {
  /** Flag > environment > profile, with sources. */
  readonly resolver: SettingsResolver;
  readonly #configDir: string | undefined;
  readonly #out: Output;
  readonly #debug: (message: string) => void;
  #store: Promise<ConfigStore> | undefined;
  #connection: Connection | undefined;
  #spends: boolean;
  /** Whether the running mock in use has been named on stderr. */
  #named = false;

  constructor(options: {
    opts: GlobalOptions;
    runtime: Pick<CliRuntime, 'env' | 'configDir'>;
    out: Output;
    debug: (message: string) => void;
    /** The embedded mock of `--mock`. */
    mock: () => Promise<MockHandle>;
    /** The command spends money (its registry entry's `spends`); `markSpending()` says so later. */
    spends?: boolean | undefined;
  }) {
    this.#spends = Boolean(options.spends);
    this.#configDir = options.runtime.configDir;
    this.#out = options.out;
    this.#debug = options.debug;
    this.resolver = new SettingsResolver({
      flags: options.opts,
      env: options.runtime.env,
      store: () => this.store(),
      warn: (message) => this.#out.warn(message),
      mock: options.mock,
      runningMock: async () => (await import('../running-mock.js')).theRunningMock(this.#configDir),
    });
  }

  /** The profile store (`config.json` in the config directory), opened once. */
  store(): Promise<ConfigStore> {
    this.#store ??= import('../config.js').then((m) => m.openConfig(this.#configDir));
    return this.#store;
  }

  /** The profile name in effect (flag > env > current profile > "default"). Opens the store only if needed. */
  async profileName(): Promise<string> {
    return (await this.resolver.profileName()).value;
  }

  /** The profile's settings (undefined when it does not exist). */
  profile(): Promise<{ name: string; settings: ProfileSettings | undefined }> {
    return this.resolver.profile();
  }

  /** A profile default (default_address, default_duration) for a flag that was not given. */
  async profileDefault(key: 'default_address' | 'default_duration'): Promise<string | undefined> {
    try {
      return (await this.profile()).settings?.[key] || undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The run is about to spend (an x402 payment, `api` on a route that is not a GET, `mcp
   * --allow-spend`): a running mock in use is named on stderr now if it was not yet, whatever
   * the output mode.
   */
  markSpending(): void {
    this.#spends = true;
    this.#nameRunningMock();
  }

  /** Whether this run spends money (declared by its command, or marked since). */
  get spends(): boolean {
    return this.#spends;
  }

  /** Names the running mock the connection came from, once: always when the run spends, else only for people. */
  #nameRunningMock(): void {
    const base = this.#connection?.baseUrl;
    if (this.#named || base?.source.kind !== 'running-mock') return;
    const text = `No base URL set: using the mock at ${base.value} (pid ${base.source.pid}), the one \`trx-rent mock\` running here (--base-url or TRX_RENT_BASE_URL for another)`;
    if (this.#spends) this.#out.diag(text);
    else if (!this.#out.json) this.#out.info(this.#out.e.dim(text));
    else return;
    this.#named = true;
  }

  /** The connection settings resolved so far (undefined before {@link settings}). */
  get connection(): Connection | undefined {
    return this.#connection;
  }

  /**
   * Base URL and API key by precedence, each with its source. The config store is opened only
   * when a flag or the environment leaves something open (or a profile was named explicitly).
   */
  async settings(needKey: boolean): Promise<Connection> {
    if (this.#connection && (this.#connection.apiKey || !needKey)) return this.#connection;
    const connection = await this.resolver.connection(needKey);
    this.#connection = connection;
    this.#nameRunningMock();
    const { baseUrl, apiKey } = connection;
    this.#debug(
      `base URL ${baseUrl?.value ?? '(none)'} from ${baseUrl ? describeSource(baseUrl.source) : '-'}; API key ${apiKey ? `from ${describeSource(apiKey.source)}` : connection.withheldKey ? `(none: profile ${connection.withheldKey.profile}'s key is bound to another origin)` : '(none)'}`,
    );
    return connection;
  }
}
