/**
 * The config service: the profile store (opened on first use), the profile in effect and its
 * defaults, and the run's connection settings (base URL and API key, flag > environment >
 * profile, each with its source) through `../settings.ts`'s resolver.
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

  constructor(options: {
    opts: GlobalOptions;
    runtime: Pick<CliRuntime, 'env' | 'configDir'>;
    out: Output;
    debug: (message: string) => void;
    /** The embedded mock of `--mock`. */
    mock: () => Promise<MockHandle>;
  }) {
    this.#configDir = options.runtime.configDir;
    this.#out = options.out;
    this.#debug = options.debug;
    this.resolver = new SettingsResolver({
      flags: options.opts,
      env: options.runtime.env,
      store: () => this.store(),
      warn: (message) => this.#out.warn(message),
      mock: options.mock,
      runningMock: async () => (await import('../running-mock.js')).findRunningMock(this.#configDir),
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
    if (connection.baseUrl?.source.kind === 'running-mock' && this.#connection?.baseUrl?.source.kind !== 'running-mock') {
      this.#out.info(this.#out.e.dim(`No base URL set: using the \`trx-rent mock\` running at ${connection.baseUrl.value} (${connection.baseUrl.source.path})`));
    }
    this.#connection = connection;
    const { baseUrl, apiKey } = connection;
    this.#debug(
      `base URL ${baseUrl?.value ?? '(none)'} from ${baseUrl ? describeSource(baseUrl.source) : '-'}; API key ${apiKey ? `from ${describeSource(apiKey.source)}` : connection.withheldKey ? `(none: profile ${connection.withheldKey.profile}'s key is bound to another origin)` : '(none)'}`,
    );
    return connection;
  }
}
