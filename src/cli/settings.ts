/**
 * Where every setting comes from, decided in one place: flag > environment > profile.
 *
 *   base URL      --base-url              > TRX_RENT_BASE_URL       > profile.base_url
 *   API key       --api-key-file FILE     > TRX_RENT_API_KEY        > profile.api_key (saved by `login`)
 *   profile       --profile               > TRX_RENT_PROFILE        > the config's current profile > "default"
 *   webhook secret --secret-file FILE|-   > --secret                > TRX_RENT_WEBHOOK_SECRET
 *   x402 keys     --key-file FILE|-       > TRX_RENT_X402_TRON_KEY / TRX_RENT_X402_EVM_KEY
 *   TRON node     --tron-node URL         > TRX_RENT_TRON_NODE      > profile.tron_node > the mock's own node when the
 *                                           base URL is a reference mock > TronGrid (its key: TRX_RENT_TRON_NODE_API_KEY)
 *   `--mock` replaces base URL and API key with the embedded mock server's. With no base URL
 *   anywhere, the one `trx-rent mock` running on this machine (running-mock.ts) provides both;
 *   when several run, the run is refused with the list (the callback throws).
 *
 * Every value carries its source (the flag, the variable's name, the profile's name), so
 * diagnostics and errors can say where a key came from without ever printing it. Nothing heavy
 * is imported: the config store is opened (through the callback) only when a flag or the
 * environment leaves something open, or a profile was named.
 */
import { readFileSync, statSync } from 'node:fs';
import type { ConfigStore, ProfileSettings } from './config.js';
import { UsageError } from './errors.js';

/** The environment variables the CLI reads its settings from. */
export const ENV = {
  baseUrl: 'TRX_RENT_BASE_URL',
  apiKey: 'TRX_RENT_API_KEY',
  profile: 'TRX_RENT_PROFILE',
  configDir: 'TRX_RENT_CONFIG_DIR',
  webhookSecret: 'TRX_RENT_WEBHOOK_SECRET',
  x402TronKey: 'TRX_RENT_X402_TRON_KEY',
  x402EvmKey: 'TRX_RENT_X402_EVM_KEY',
  /** Per-attempt request timeout (`10s`, `1m`, or seconds). */
  timeout: 'TRX_RENT_TIMEOUT',
  /** Retries after the first attempt (0-10). */
  maxRetries: 'TRX_RENT_MAX_RETRIES',
  /** The TRON full node `ensure`, `send` and `mcp` read (default TronGrid; the mock's own when the base URL is a reference mock). */
  tronNode: 'TRX_RENT_TRON_NODE',
  /** TronGrid's API key (TRON-PRO-API-KEY), sent to the TRON node only. */
  tronNodeApiKey: 'TRX_RENT_TRON_NODE_API_KEY',
  /** The key `send` signs with (hex), when no --key-file is given. */
  privateKey: 'TRX_RENT_PRIVATE_KEY',
  /** Where shared state lives: a `postgres://` URL (the PostgreSQL store) for `store`, `send` and `send --batch`. */
  store: 'TRX_RENT_STORE',
  /** How long a worker's lease lasts on the PostgreSQL store (`15s`). */
  storeLease: 'TRX_RENT_STORE_LEASE',
} as const;

export type Source =
  | { kind: 'flag'; flag: string }
  | { kind: 'file'; flag: string; path: string }
  | { kind: 'stdin'; flag: string }
  | { kind: 'env'; name: string }
  | { kind: 'profile'; profile: string }
  | { kind: 'mock' }
  | { kind: 'running-mock'; path: string; pid: number }
  | { kind: 'reference-mock' }
  | { kind: 'prompt' }
  | { kind: 'default' };

export interface Sourced<T = string> {
  value: T;
  source: Source;
}

/** `--base-url`, `--api-key-file /path`, `TRX_RENT_API_KEY`, `profile work`, `embedded mock` … */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return source.flag;
    case 'file':
      return `${source.flag} ${source.path}`;
    case 'stdin':
      return `stdin (${source.flag})`;
    case 'env':
      return source.name;
    case 'profile':
      return `profile ${source.profile}`;
    case 'mock':
      return 'embedded mock';
    case 'running-mock':
      return `the running \`trx-rent mock\` (pid ${source.pid})`;
    case 'reference-mock':
      return "the base URL's reference mock";
    case 'prompt':
      return 'prompt';
    case 'default':
      return 'default';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value (trimmed) with its name as source; undefined when unset or blank. */
export function fromEnv(env: Env, name: string): Sourced | undefined {
  const value = env[name]?.trim();
  return value ? { value, source: { kind: 'env', name } } : undefined;
}

/** The first value present, in precedence order. */
export function firstOf<T>(...candidates: Array<Sourced<T> | undefined>): Sourced<T> | undefined {
  return candidates.find((c) => c !== undefined);
}

/**
 * A secret from a file named by `flag`: trimmed, never echoed (errors name the flag and the
 * path only), with a warning when other users can read it.
 */
export function readSecretFile(path: string, flag: string, warn: (message: string) => void): Sourced {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) warn(`${path} is readable by other users; chmod 600 it`);
  } catch {
    // stat is advisory only
  }
  const value = text.trim();
  if (!value) throw new UsageError(`${flag} ${path} is empty`);
  return { value, source: { kind: 'file', flag, path } };
}

export interface Connection {
  baseUrl: Sourced | undefined;
  apiKey: Sourced | undefined;
  /**
   * A key the profile holds but that was not used: it was saved for another origin than the
   * base URL in effect (which came from a flag or the environment). Set only when `apiKey` is not.
   */
  withheldKey?: { profile: string; origin: string | undefined } | undefined;
}

/** The origin of a URL (`https://api.example.com`), or undefined when it is not one. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuse a base URL that carries a user name or password (`https://user:pass@host`): the
 * password would be echoed in messages and logs, and the API takes its key in a header. The
 * error names where the URL came from, never the URL itself.
 */
export function checkBaseUrl(baseUrl: Sourced | undefined): Sourced | undefined {
  if (!baseUrl) return baseUrl;
  let userinfo = false;
  try {
    const parsed = new URL(baseUrl.value);
    userinfo = parsed.username !== '' || parsed.password !== '';
  } catch {
    // Not a URL at all: the SDK says so. Only the '@' test below guards the text.
    userinfo = baseUrl.value.includes('@');
  }
  if (userinfo) {
    throw new UsageError(
      `the base URL from ${describeSource(baseUrl.source)} carries a user name or password (user:pass@host); it is refused and not shown`,
      'remove the user:pass@ part; give the API key with TRX_RENT_API_KEY, --api-key-file FILE or `trx-rent login`',
      'CONFIGURATION_ERROR',
    );
  }
  return baseUrl;
}

/** The message and hint of a run that needs an API key and has none (or only one bound to another origin). */
export function missingKeyProblem(connection: Connection | undefined): { message: string; hint: string } {
  const withheld = connection?.withheldKey;
  const target = originOf(connection?.baseUrl?.value);
  if (withheld && connection?.baseUrl && target) {
    const saved = withheld.origin ? `for ${withheld.origin}` : 'without a base URL';
    return {
      message: `No API key for ${target} (from ${describeSource(connection.baseUrl.source)}): the key in profile ${withheld.profile} was saved ${saved} and is only sent there`,
      hint: `save a key for it with \`trx-rent login --base-url ${target} --profile NAME\` (then --profile NAME), or give one for this run with TRX_RENT_API_KEY or --api-key-file FILE`,
    };
  }
  return { message: 'No API key', hint: 'set TRX_RENT_API_KEY, pass --api-key-file FILE, or run `trx-rent login`' };
}

export interface GlobalFlags {
  baseUrl?: string | undefined;
  profile?: string | undefined;
  apiKeyFile?: string | undefined;
  mock?: boolean | undefined;
}

/** The x402 wallet: one key per chain, each with where it came from. */
export interface X402Keys {
  tron?: Sourced;
  evm?: Sourced;
}

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

export class SettingsResolver {
  readonly #flags: GlobalFlags;
  readonly #env: Env;
  readonly #store: () => Promise<ConfigStore>;
  readonly #warn: (message: string) => void;
  readonly #mock: () => Promise<{ url: string; apiKey: string }>;
  readonly #runningMock: (() => Promise<{ url: string; apiKey: string; path: string; pid: number } | undefined>) | undefined;

  constructor(options: {
    flags: GlobalFlags;
    env: Env;
    /** Opens the config store (lazily: only a setting left open by flags and environment reads the file). */
    store: () => Promise<ConfigStore>;
    /** Warnings (a world-readable key file). */
    warn: (message: string) => void;
    /** The embedded mock of `--mock`. */
    mock: () => Promise<{ url: string; apiKey: string }>;
    /**
     * The one `trx-rent mock` running on this machine, used when nothing names a base URL
     * (undefined: none runs; it throws when several do).
     */
    runningMock?: (() => Promise<{ url: string; apiKey: string; path: string; pid: number } | undefined>) | undefined;
  }) {
    this.#flags = options.flags;
    this.#env = options.env;
    this.#store = options.store;
    this.#warn = options.warn;
    this.#mock = options.mock;
    this.#runningMock = options.runningMock;
  }

  /** A profile named by flag or environment (undefined: the config decides). */
  explicitProfile(): Sourced | undefined {
    return firstOf(
      this.#flags.profile ? { value: this.#flags.profile, source: { kind: 'flag', flag: '--profile' } } : undefined,
      fromEnv(this.#env, ENV.profile),
    );
  }

  /** The profile in effect: --profile > TRX_RENT_PROFILE > the current profile > "default". */
  async profileName(): Promise<Sourced> {
    const explicit = this.explicitProfile();
    if (explicit) return explicit;
    const current = (await this.#store()).currentProfile();
    return current ? { value: current, source: { kind: 'profile', profile: current } } : { value: 'default', source: { kind: 'default' } };
  }

  /** The profile's settings (undefined when it does not exist). */
  async profile(): Promise<{ name: string; settings: ProfileSettings | undefined }> {
    const name = (await this.profileName()).value;
    return { name, settings: (await this.#store()).getProfile(name) };
  }

  /** Base URL from flag or environment (no profile). */
  baseUrlOverride(): Sourced | undefined {
    return firstOf(
      this.#flags.baseUrl ? { value: this.#flags.baseUrl, source: { kind: 'flag', flag: '--base-url' } } : undefined,
      fromEnv(this.#env, ENV.baseUrl),
    );
  }

  /** API key from --api-key-file or TRX_RENT_API_KEY (no profile). */
  apiKeyOverride(): Sourced | undefined {
    if (this.#flags.apiKeyFile) return readSecretFile(this.#flags.apiKeyFile, '--api-key-file', this.#warn);
    return fromEnv(this.#env, ENV.apiKey);
  }

  /** Base URL and API key by precedence; `needKey` false skips opening the profile for a key. */
  async connection(needKey: boolean): Promise<Connection> {
    if (this.#flags.mock) {
      const mock = await this.#mock();
      return { baseUrl: { value: mock.url, source: { kind: 'mock' } }, apiKey: { value: mock.apiKey, source: { kind: 'mock' } } };
    }
    const override = checkBaseUrl(this.baseUrlOverride());
    let baseUrl = override;
    let apiKey = this.apiKeyOverride();
    let withheldKey: Connection['withheldKey'];
    const explicit = this.explicitProfile();
    if (!baseUrl || (needKey && !apiKey) || explicit) {
      const { name, settings } = await this.profile();
      if (!settings && explicit) {
        throw new UsageError(`profile "${name}" does not exist`, 'list profiles with `trx-rent profiles`, or create it with `trx-rent login --profile NAME`');
      }
      const fromProfile = { kind: 'profile', profile: name } as const;
      baseUrl ??= checkBaseUrl(settings?.base_url ? { value: settings.base_url, source: fromProfile } : undefined);
      if (!apiKey && settings?.api_key) {
        // A saved key is bound to the origin `login` saved it for (gh binds credentials to a
        // host): a base URL from a flag or the environment (a .envrc, a CI variable) that points
        // elsewhere gets no key from the profile, only one given for this run.
        const savedFor = originOf(settings.base_url);
        if (!override || (savedFor !== undefined && savedFor === originOf(override.value))) apiKey = { value: settings.api_key, source: fromProfile };
        else withheldKey = { profile: name, origin: savedFor };
      } else if (explicit && apiKey?.source.kind === 'env' && settings?.api_key && settings.api_key !== apiKey.value) {
        // Flag > environment > profile holds, but a named profile whose key is silently not used
        // surprises (an exported key left over in the shell): say which key is sent.
        this.#warn(
          `using the API key from ${ENV.apiKey}, not the one saved in profile ${name} (${describeSource(explicit.source)}); unset ${ENV.apiKey} to use the profile's`,
        );
      }
    }
    if (!baseUrl) {
      const running = await this.#runningMock?.();
      if (running) {
        const source = { kind: 'running-mock', path: running.path, pid: running.pid } as const;
        baseUrl = { value: running.url, source };
        apiKey ??= { value: running.apiKey, source };
      }
    }
    return withheldKey ? { baseUrl, apiKey, withheldKey } : { baseUrl, apiKey };
  }

  /** The webhook secret: --secret-file (a file, or - for stdin) > --secret > TRX_RENT_WEBHOOK_SECRET. */
  async webhookSecret(opts: { secret?: string | undefined; secretFile?: string | undefined }, stdin?: () => Promise<string>): Promise<Sourced | undefined> {
    if (opts.secretFile === '-') {
      if (!stdin) throw new UsageError('--secret-file - reads stdin, which carries the body here', 'pass --secret-file FILE or set TRX_RENT_WEBHOOK_SECRET');
      const value = (await stdin()).trim();
      if (!value) throw new UsageError('no webhook secret on stdin (--secret-file -)');
      return { value, source: { kind: 'stdin', flag: '--secret-file -' } };
    }
    if (opts.secretFile) return readSecretFile(opts.secretFile, '--secret-file', this.#warn);
    if (opts.secret) return { value: opts.secret, source: { kind: 'flag', flag: '--secret' } };
    return fromEnv(this.#env, ENV.webhookSecret);
  }

  /**
   * The x402 wallet: --key-file (a hex key, or JSON {"tron": …, "evm": …}; - for stdin) >
   * TRX_RENT_X402_TRON_KEY / TRX_RENT_X402_EVM_KEY. Undefined when none is given (the command may
   * then ask at a terminal). Keys are checked for shape; their text is never echoed.
   */
  async x402Keys(opts: { keyFile?: string | undefined }, stdin: () => Promise<string>): Promise<X402Keys | undefined> {
    if (opts.keyFile) {
      const file: Sourced =
        opts.keyFile === '-'
          ? { value: (await stdin()).trim(), source: { kind: 'stdin', flag: '--key-file -' } }
          : readSecretFile(opts.keyFile, '--key-file', this.#warn);
      const where = describeSource(file.source);
      if (!file.value) throw new UsageError(`${where} is empty`);
      if (HEX_KEY.test(file.value)) return { tron: file };
      let parsed: unknown;
      try {
        parsed = JSON.parse(file.value);
      } catch {
        // never echo the file: it holds a key
        throw new UsageError(`${where} holds neither a hex private key nor JSON {"tron": "…", "evm": "…"}`);
      }
      const obj = (parsed ?? {}) as Record<string, unknown>;
      const keys: X402Keys = {};
      for (const chain of ['tron', 'evm'] as const) {
        const value = obj[chain] ?? (chain === 'evm' ? obj.base : undefined);
        if (value === undefined) continue;
        if (typeof value !== 'string' || !HEX_KEY.test(value.trim())) throw new UsageError(`${where}: "${chain}" is not a 64-hex private key`);
        keys[chain] = { value: value.trim(), source: file.source };
      }
      if (!keys.tron && !keys.evm) throw new UsageError(`${where} has no "tron" or "evm" key`);
      return keys;
    }
    const tron = fromEnv(this.#env, ENV.x402TronKey);
    const evm = fromEnv(this.#env, ENV.x402EvmKey);
    if (!tron && !evm) return undefined;
    for (const key of [tron, evm]) {
      if (key && !HEX_KEY.test(key.value)) throw new UsageError(`${describeSource(key.source)} is not a 64-hex private key`);
    }
    return { ...(tron ? { tron } : {}), ...(evm ? { evm } : {}) };
  }
}

export function isHexKey(value: string): boolean {
  return HEX_KEY.test(value);
}
