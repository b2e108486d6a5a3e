/**
 * The per-run context every command action receives: resolved global options, output, the
 * run's runtime (streams, environment, fetch, signals), and lazy access to the heavy parts (SDK,
 * the profile store, prompts, the mock server). Nothing heavy is imported at the top of this file.
 *
 * Settings (base URL, API key, profile, secrets) resolve in `settings.ts`: flag > environment >
 * profile, each value with its source. `--mock` replaces base URL and key with an embedded mock
 * server's for the run.
 */
import { Writable } from 'node:stream';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { HttpClient } from '../http/client.js';
import type { BalanceResource } from '../resources/balance.js';
import type { Deposits } from '../resources/deposits.js';
import type { History } from '../resources/history.js';
import type { Keys } from '../resources/keys.js';
import type { Orders } from '../resources/orders.js';
import type { Prices } from '../resources/prices.js';
import type { Webhooks } from '../resources/webhooks.js';
import type { Transactions } from '../resources/transactions.js';
import type { Withdrawals } from '../resources/withdrawals.js';
import type { Chain, Transfers } from '../tron/facade.js';
import type { TransferStore } from '../tron/identity.js';
import type { MockServer, MockServerOptions } from '../mock/index.js';
import { redactText } from '../internal/redact.js';
import { CancelledError, CliError, EXIT, InterruptedError, UsageError, formatReport, reportFor } from './errors.js';
import type { ConfigStore, ProfileSettings } from './config.js';
import { Output, colorEnabled } from './output.js';
import { sanitizeText } from './sanitize.js';
import { type CliReader, type CliRuntime, isProcessStream } from './runtime.js';
import { parseDuration, parseInteger } from './parse.js';
import { type Connection, ENV, type Source, SettingsResolver, checkBaseUrl, describeSource, fromEnv, missingKeyProblem } from './settings.js';
import { type Run, runOf } from './state.js';
import { readStdin, readStdinBytes } from './stdin.js';

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
  prices: () => import('../resources/prices.js').then((m) => m.Prices),
  orders: () => import('../resources/orders.js').then((m) => m.Orders),
  balance: () => import('../resources/balance.js').then((m) => m.BalanceResource),
  history: () => import('../resources/history.js').then((m) => m.History),
  deposits: () => import('../resources/deposits.js').then((m) => m.Deposits),
  withdrawals: () => import('../resources/withdrawals.js').then((m) => m.Withdrawals),
  keys: () => import('../resources/keys.js').then((m) => m.Keys),
  webhooks: () => import('../resources/webhooks.js').then((m) => m.Webhooks),
  transactions: () => import('../resources/transactions.js').then((m) => m.Transactions),
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

  get<K extends keyof Resources>(name: K): Promise<Resources[K]> {
    let resource = this.#resources.get(name);
    if (!resource) {
      resource = RESOURCE_LOADERS[name]().then((Resource) => new Resource(this.http));
      this.#resources.set(name, resource);
    }
    return resource as Promise<Resources[K]>;
  }
}

/** `client.transfers` and `client.chain` for a command, and the node they read. */
export interface ChainHandles {
  transfers: Transfers;
  chain: Chain;
  node: string;
}

export interface GlobalOptions {
  baseUrl?: string;
  profile?: string;
  apiKeyFile?: string;
  json?: boolean;
  yes?: boolean;
  mock?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** `--json id,status` (the word after --json; see expandJsonFields in index.ts). */
  jsonFields?: string;
  /** `--query EXPR`: JMESPath over the JSON result. */
  query?: string;
  /** `--wide`: tables at full width. */
  wide?: boolean;
}

// The five prompts the CLI asks, as separate packages: @inquirer/prompts would also bring the
// editor, expand, number, rawlist and search prompts with iconv-lite and chardet (10 packages).
interface PromptsModule {
  input: typeof import('@inquirer/input').default;
  password: typeof import('@inquirer/password').default;
  select: typeof import('@inquirer/select').default;
  confirm: typeof import('@inquirer/confirm').default;
  checkbox: typeof import('@inquirer/checkbox').default;
}

async function loadPrompts(): Promise<PromptsModule> {
  const [input, password, select, confirm, checkbox] = await Promise.all([
    import('@inquirer/input'),
    import('@inquirer/password'),
    import('@inquirer/select'),
    import('@inquirer/confirm'),
    import('@inquirer/checkbox'),
  ]);
  return { input: input.default, password: password.default, select: select.default, confirm: confirm.default, checkbox: checkbox.default };
}
/** The prompts the CLI asks with, bound to the run's terminal. */
export type Prompts = Pick<PromptsModule, 'input' | 'password' | 'select' | 'confirm' | 'checkbox'>;

/** What `startMockServer` from `trx-rent/mock` resolves to, and its options. */
export type MockHandle = MockServer;
export type MockOptions = MockServerOptions;

export class Context {
  readonly opts: GlobalOptions;
  readonly out: Output;
  readonly run: Run;
  readonly runtime: CliRuntime;
  /** The run's environment (never `process.env` directly). */
  readonly env: CliRuntime['env'];
  /** Flag > environment > profile, with sources. */
  readonly settingsResolver: SettingsResolver;
  /** A person is there: stdin and stdout are TTYs, and neither --json nor --yes rules prompts out. */
  readonly interactive: boolean;
  /** e.g. `orders get` */
  readonly commandPath: string;
  /** Money the running command is about to spend (for the INSUFFICIENT_BALANCE hint). */
  spending: { sun: number; currency: 'TRX' | 'USDT' } | undefined;

  #connection: Connection | undefined;
  #config: Promise<ConfigStore> | undefined;
  #mock: Promise<MockHandle> | undefined;
  #clients = new Map<boolean, Promise<LazyClient>>();
  #disposers: Array<() => unknown> = [];
  #lastClient: LazyClient | undefined;
  #tronNode: { url: string | undefined; source: Source; apiKey: string | undefined } | undefined;

  constructor(opts: GlobalOptions, commandPath: string, run: Run) {
    this.opts = opts;
    this.run = run;
    this.runtime = run.runtime;
    const { env, stdout, stderr, stdin } = run.runtime;
    this.env = env;
    this.commandPath = commandPath;
    const stdoutTTY = Boolean(stdout.isTTY);
    const shaped = Boolean(opts.query || opts.jsonFields);
    const mode = opts.json === true || shaped || (opts.json !== false && !stdoutTTY) ? 'json' : 'human';
    const fields = opts.jsonFields?.split(',').map((f) => f.trim()).filter(Boolean);
    this.out = new Output({
      width: stdoutTTY && !opts.wide ? stdout.columns || Number(env.COLUMNS) || 80 : undefined,
      shaping: { fields: fields?.length ? fields : undefined },
      // As gh does: a field that does not exist is a mistake to fix (exit 2), not a warning to scroll past.
      unknownFields: (missing, available) => {
        throw new UsageError(`no field ${missing.join(', ')} in this output`, `available: ${available.join(', ')}`, 'UNKNOWN_FIELD');
      },
      mode,
      stdout,
      stderr,
      stdoutColor: colorEnabled(stdout, env, opts.color),
      stderrColor: colorEnabled(stderr, env, opts.color),
      spinner: Boolean(stderr.isTTY) && env.TERM !== 'dumb' && !opts.verbose,
    });
    this.interactive = Boolean(stdin.isTTY) && stdoutTTY && mode === 'human' && !opts.yes;
    this.settingsResolver = new SettingsResolver({
      flags: opts,
      env,
      store: () => this.config(),
      warn: (message) => this.out.warn(message),
      mock: () => this.mock(),
      runningMock: async () => (await import('./running-mock.js')).findRunningMock(this.runtime.configDir),
    });
  }

  /** The package version. */
  get version(): string {
    return this.run.version;
  }

  /** The run's stdin (piped input; `isTTY` when a person types). */
  get stdin(): CliReader {
    return this.runtime.stdin;
  }

  /** The run's fetch (every HTTP request goes through it). */
  get fetch(): typeof fetch {
    return this.runtime.fetch;
  }

  /** All of stdin as text. */
  readStdin(): Promise<string> {
    return readStdin(this.runtime.stdin);
  }

  /** All of stdin as bytes. */
  readStdinBytes(): Promise<Uint8Array> {
    return readStdinBytes(this.runtime.stdin);
  }

  /** Resolves on the first interrupt (Ctrl+C, SIGTERM): long-running commands stop there. Aborting `stop` stops listening. */
  untilSignal(stop?: AbortSignal): Promise<string> {
    return this.runtime.untilSignal(stop);
  }

  /**
   * An interrupt (Ctrl+C, SIGTERM) turned into an abort: `signal` aborts with an
   * InterruptedError naming it, `interrupted()` says which arrived, `done()` stops listening.
   * The commands that spend (send, ensure) pass `signal` to the SDK, which stops at its next step.
   */
  interruptible(): { signal: AbortSignal; interrupted: () => string | undefined; done: () => void } {
    const stop = new AbortController();
    const abort = new AbortController();
    let interrupted: string | undefined;
    void this.untilSignal(stop.signal).then(
      (signal) => {
        interrupted = signal;
        abort.abort(new InterruptedError(`Interrupted (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'})`, { signal }));
      },
      () => undefined,
    );
    return { signal: abort.signal, interrupted: () => interrupted, done: () => stop.abort() };
  }

  /**
   * The command that continues what this run started (`trx-rent orders wait ID`), with the
   * settings given as flags (profile, base URL); undefined with --mock (its server ends with the run).
   */
  resumeCommand(args: string): string | undefined {
    if (this.opts.mock) return undefined;
    const flags = [this.opts.profile ? ` --profile ${this.opts.profile}` : '', this.opts.baseUrl ? ` --base-url ${this.opts.baseUrl}` : ''].join('');
    return `trx-rent ${args}${flags}`;
  }

  /** Verbose diagnostics (stderr, redacted). */
  debug(message: string): void {
    if (this.opts.verbose) this.out.diag(this.out.e.dim(redactText(message)));
  }

  onDispose(fn: () => unknown): void {
    this.#disposers.push(fn);
  }

  async dispose(): Promise<void> {
    for (const fn of this.#disposers.reverse()) {
      try {
        await fn();
      } catch (error) {
        this.debug(`cleanup failed: ${String(error)}`);
      }
    }
    this.#disposers = [];
  }

  // ---- configuration ------------------------------------------------------------------

  config(): Promise<ConfigStore> {
    this.#config ??= import('./config.js').then((m) => m.openConfig(this.runtime.configDir));
    return this.#config;
  }

  /** The profile name in effect (flag > env > current profile > "default"). Opens the store only if needed. */
  async profileName(): Promise<string> {
    return (await this.settingsResolver.profileName()).value;
  }

  /** The profile's settings (undefined when it does not exist). */
  profile(): Promise<{ name: string; settings: ProfileSettings | undefined }> {
    return this.settingsResolver.profile();
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
   * Base URL and API key by precedence, each with its source. The config store is opened only
   * when a flag or the environment leaves something open (or a profile was named explicitly).
   */
  async settings(needKey: boolean): Promise<Connection> {
    if (this.#connection && (this.#connection.apiKey || !needKey)) return this.#connection;
    const connection = await this.settingsResolver.connection(needKey);
    if (connection.baseUrl?.source.kind === 'running-mock' && this.#connection?.baseUrl?.source.kind !== 'running-mock') {
      this.out.info(this.out.e.dim(`No base URL set: using the \`trx-rent mock\` running at ${connection.baseUrl.value} (${connection.baseUrl.source.path})`));
    }
    this.#connection = connection;
    const { baseUrl, apiKey } = connection;
    this.debug(
      `base URL ${baseUrl?.value ?? '(none)'} from ${baseUrl ? describeSource(baseUrl.source) : '-'}; API key ${apiKey ? `from ${describeSource(apiKey.source)}` : connection.withheldKey ? `(none: profile ${connection.withheldKey.profile}'s key is bound to another origin)` : '(none)'}`,
    );
    return connection;
  }

  // ---- SDK ----------------------------------------------------------------------------

  /**
   * One SDK resource (e.g. `await ctx.api('orders')`) on the run's HTTP client. Only that
   * resource's module (and its schemas) is imported, not the whole client: `prices` never loads
   * the deposit signing code. `auth: false` for public endpoints (no key needed).
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
    const s = await this.settings(auth);
    if (!s.baseUrl) {
      throw new UsageError(
        'No API base URL',
        'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock',
        'CONFIGURATION_ERROR',
      );
    }
    if (auth && !s.apiKey) {
      const { message, hint } = missingKeyProblem(s);
      throw new CliError('UNAUTHORIZED', message, { exitCode: EXIT.AUTH, hint });
    }
    return this.clientFor(s.baseUrl.value, s.apiKey?.value);
  }

  /** An SDK client for an explicit origin and key (the demo's embedded mock, `login`'s check). */
  async clientFor(baseUrl: string, apiKey: string | undefined, extra: { maxRetries?: number } = {}): Promise<LazyClient> {
    const { HttpClient } = await import('../http/client.js');
    const http = new HttpClient({
      baseUrl,
      // '' (not undefined): the SDK would fall back to process.env; the CLI reads only its runtime's env.
      apiKey: apiKey ?? '',
      fetch: this.runtime.fetch,
      logLevel: this.opts.verbose ? 'debug' : 'off',
      headers: { 'user-agent': `trx-rent-cli/${this.version}` },
      // A person (or a script) should not sit silently through a long Retry-After: fail with
      // exit code 5 and the wait in the hint instead.
      retry: { maxRetryAfterMs: 10_000 },
      ...this.#requestLimits(),
      ...extra,
      ...(this.opts.verbose ? { logLevel: 'debug' as const, logger: { debug: (m: string) => this.debug(m) } } : {}),
    });
    const client = new LazyClient(http);
    this.#lastClient = client;
    return client;
  }

  /**
   * TRX_RENT_TIMEOUT (per attempt: `10s`, `1m` or seconds) and TRX_RENT_MAX_RETRIES (0-10) for
   * every request of the run; the SDK's defaults (30 s, 2 retries) otherwise.
   */
  #requestLimits(): { timeoutMs?: number; maxRetries?: number } {
    const limits: { timeoutMs?: number; maxRetries?: number } = {};
    const timeout = this.env[ENV.timeout]?.trim();
    if (timeout) limits.timeoutMs = parseDuration(timeout, ENV.timeout) * 1000;
    const retries = this.env[ENV.maxRetries]?.trim();
    if (retries) limits.maxRetries = parseInteger(retries, ENV.maxRetries, { max: 10 });
    return limits;
  }

  /**
   * `client.transfers` and `client.chain` on the run's client, reading the TRON node of
   * {@link tronNode} (the `--tron-node` flag given as `node`).
   */
  async chain(node?: string): Promise<ChainHandles> {
    const client = await this.client();
    const setting = await this.tronNode(node, client);
    return this.chainFor(client, setting.url, { apiKey: setting.apiKey, store: await this.transferStore() });
  }

  /**
   * The TRON node every command that reads the chain uses: `--tron-node` > TRX_RENT_TRON_NODE >
   * the profile's tron_node > the mock's own node when the base URL is a reference mock (the
   * embedded one, the running `trx-rent mock`, or any base URL whose /__mock/state answers, as
   * `status` detects one; said on stderr) > TronGrid. TronGrid's key (TRX_RENT_TRON_NODE_API_KEY)
   * goes to a node that was set, never to a mock found this way.
   */
  async tronNode(flag?: string, client?: LazyClient, say = true): Promise<{ url: string | undefined; source: Source; apiKey: string | undefined }> {
    if (this.#tronNode) return this.#tronNode;
    const apiKey = this.env[ENV.tronNodeApiKey]?.trim() || undefined;
    let found: { url: string | undefined; source: Source; apiKey: string | undefined } | undefined;
    if (flag) found = { url: flag, source: { kind: 'flag', flag: '--tron-node' }, apiKey };
    const env = fromEnv(this.env, ENV.tronNode);
    if (!found && env) found = { url: env.value, source: env.source, apiKey };
    if (!found && !this.opts.mock) {
      const profile = await this.profile().catch(() => undefined);
      if (profile?.settings?.tron_node) found = { url: profile.settings.tron_node, source: { kind: 'profile', profile: profile.name }, apiKey };
    }
    if (!found) {
      const connection = await this.settings(false);
      const base = connection.baseUrl;
      if (base && (base.source.kind === 'mock' || base.source.kind === 'running-mock')) {
        found = { url: base.value, source: base.source, apiKey: undefined };
      } else if (base && (await this.#isReferenceMock(client ?? (await this.clientFor(base.value, undefined, { maxRetries: 0 }))))) {
        found = { url: base.value, source: { kind: 'reference-mock' }, apiKey: undefined };
      }
      if (found && say) this.out.info(this.out.e.dim(`TRON node: the mock's own at ${found.url} (the base URL is a reference mock; --tron-node or ${ENV.tronNode} to read another)`));
    }
    found ??= { url: undefined, source: { kind: 'default' }, apiKey };
    if (found.url) {
      checkBaseUrl({ value: found.url, source: found.source });
    }
    this.#tronNode = found;
    return found;
  }

  /** Whether the API at the client's base URL is the reference mock (its public /__mock/state answers). */
  async #isReferenceMock(client: LazyClient): Promise<boolean> {
    const { unknown: anything } = await import('zod');
    return client.http
      .request({ method: 'GET', path: '/__mock/state', schema: anything(), auth: false, options: { maxRetries: 0, timeoutMs: 5_000 } })
      .then((r) => Boolean(r.data && typeof r.data === 'object' && 'seed' in r.data && 'platform_address' in r.data))
      .catch(() => false);
  }

  /**
   * Where `send` keeps each signed transfer with its idempotency key: `transfers/` under the
   * config directory (one 0600 file per key), so a re-run with `--idempotency-key` lands the
   * transaction signed before instead of signing a new one.
   */
  transfersDir(): Promise<string> {
    return import('./config.js').then((m) => join(this.runtime.configDir || m.defaultConfigDir(), 'transfers'));
  }

  /** The CLI's file transfer store (see {@link transfersDir}). */
  async transferStore(): Promise<TransferStore> {
    const { fileTransferStore } = await import('../tron/identity.js');
    return fileTransferStore(await this.transfersDir());
  }

  /** `transfers` and `resources` on an explicit client and node (the demo's embedded mock). */
  async chainFor(client: LazyClient, node: string | undefined, options: { apiKey?: string | undefined; store?: TransferStore | undefined } = {}): Promise<ChainHandles> {
    const { Chain, ChainAccess, Transfers } = await import('../tron/facade.js');
    const { DEFAULT_TRON_NODE } = await import('../tron/node.js');
    const { apiKey, store } = options;
    const access = new ChainAccess(client.http, { baseUrl: node, fetch: this.runtime.fetch, apiKey, clock: client.http.clock, ...this.#requestLimits() }, store);
    this.debug(`TRON node ${node ?? DEFAULT_TRON_NODE}${apiKey ? ` (with ${ENV.tronNodeApiKey})` : ''}`);
    return { transfers: new Transfers(access), chain: new Chain(access), node: node ?? DEFAULT_TRON_NODE };
  }

  /** The base URL in use (for hints), when resolved. */
  get baseUrl(): string | undefined {
    return this.#connection?.baseUrl?.value ?? this.#lastClient?.http.baseUrl;
  }

  // ---- mock server --------------------------------------------------------------------

  /** The embedded mock of `--mock` (started once per run, closed on exit). */
  mock(): Promise<MockHandle> {
    this.#mock ??= this.startMock({ port: 0, host: '127.0.0.1' }).then((m) => {
      this.debug(`embedded mock server at ${m.url}`);
      return m;
    });
    return this.#mock;
  }

  async startMock(options: MockOptions): Promise<MockHandle> {
    const mod = (await import('../mock/index.js')) as { startMockServer?: (o: MockOptions) => Promise<MockHandle> };
    if (typeof mod.startMockServer !== 'function') {
      throw new CliError('NOT_AVAILABLE', 'The mock server is not part of this build');
    }
    const handle = await mod.startMockServer(options);
    this.onDispose(() => handle.close());
    return handle;
  }

  // ---- people -------------------------------------------------------------------------

  async prompts(): Promise<Prompts> {
    if (!this.interactive) throw new Error('internal: prompts need a terminal');
    const mod = await loadPrompts();
    const { stdin, stdout } = this.runtime;
    if (isProcessStream(stdin) && isProcessStream(stdout)) return mod;
    // Another terminal than the process's (an in-process run): ask on the run's streams. The
    // prompts pipe into their output, so a plain writer is wrapped in a stream.
    const output: NodeJS.WritableStream =
      typeof (stdout as { on?: unknown }).on === 'function'
        ? (stdout as NodeJS.WritableStream)
        : Object.assign(
            new Writable({
              write(chunk: Buffer | string, _encoding, done) {
                stdout.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
                done();
              },
            }),
            { isTTY: stdout.isTTY, columns: stdout.columns },
          );
    const context = { input: stdin as NodeJS.ReadableStream, output };
    return {
      input: ((config: Parameters<PromptsModule['input']>[0]) => mod.input(config, context)) as PromptsModule['input'],
      password: ((config: Parameters<PromptsModule['password']>[0]) => mod.password(config, context)) as PromptsModule['password'],
      select: ((config: Parameters<PromptsModule['select']>[0]) => mod.select(config, context)) as PromptsModule['select'],
      confirm: ((config: Parameters<PromptsModule['confirm']>[0]) => mod.confirm(config, context)) as PromptsModule['confirm'],
      checkbox: ((config: Parameters<PromptsModule['checkbox']>[0]) => mod.checkbox(config, context)) as PromptsModule['checkbox'],
    };
  }

  /**
   * Ask before doing something that spends money or cannot be undone. `--yes` answers yes;
   * without a terminal the command fails with exit 2 and does nothing.
   */
  async confirm(message: string, what: string): Promise<void> {
    if (this.opts.yes) return;
    if (!this.interactive) {
      throw new UsageError(
        `refusing to ${what} without confirmation (no terminal to ask on)`,
        'pass --yes to confirm non-interactively',
        'CONFIRMATION_REQUIRED',
      );
    }
    const { confirm } = await this.prompts();
    // The prompt writes to the terminal itself, not through Output: sanitise here (ids and
    // names in the question may have come from a server).
    const ok = await confirm({ message: sanitizeText(message), default: false });
    if (!ok) throw new CancelledError();
  }

  /**
   * Fill in missing inputs: given value > prompt (when a person is there) > default > error.
   * Without a terminal every missing input is named in one usage error (exit 2), at once.
   */
  async inputs<T extends Record<string, unknown>>(specs: { [K in keyof T]: InputSpec<T[K]> }): Promise<T> {
    const result: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const [key, spec] of Object.entries(specs) as Array<[string, InputSpec<unknown>]>) {
      if (spec.value !== undefined) result[key] = spec.value;
      else if (!(this.interactive && spec.ask) && spec.default !== undefined) result[key] = spec.default;
      else if (!this.interactive || !spec.ask) missing.push(spec.label);
    }
    if (missing.length) {
      throw new UsageError(
        `missing ${missing.join(', ')}`,
        this.opts.yes || this.opts.json
          ? 'pass them as arguments (prompts are off with --yes/--json)'
          : 'pass them as arguments, or run on a terminal to be asked',
        'MISSING_ARGUMENT',
      );
    }
    for (const [key, spec] of Object.entries(specs) as Array<[string, InputSpec<unknown>]>) {
      if (key in result) continue;
      result[key] = await spec.ask!(await this.prompts(), { ...result });
    }
    return result as T;
  }

  // ---- errors -------------------------------------------------------------------------

  /** Print the one-line error report (stderr) and return the exit code. */
  async report(error: unknown): Promise<number> {
    const report = await reportFor(error, {
      baseUrl: this.baseUrl,
      baseUrlSource: this.#connection?.baseUrl?.source,
      apiKeySource: this.#connection?.apiKey?.source,
      tronNode: this.#tronNode ? { url: this.#tronNode.url ?? 'https://api.trongrid.io', source: this.#tronNode.source } : undefined,
      command: this.commandPath,
      spending: this.spending,
      balance: this.#lastClient
        ? async () => (await this.#lastClient!.get('balance')).get({ maxRetries: 0, timeoutMs: 5_000 })
        : undefined,
    });
    if (report.code === 'CANCELLED') {
      // Not an error: the person said no (exit 0) or pressed Ctrl+C at a prompt (130).
      this.out.diag(report.message);
      return report.exit_code;
    }
    // JSON errors are for programs; a --query or --json run whose output and errors both go to a
    // terminal is read by a person, who gets words (as gh does).
    const forPeople = Boolean(this.runtime.stderr.isTTY) && Boolean(this.runtime.stdout.isTTY);
    if (this.out.json && !forPeople) this.out.diagJson({ error: report });
    else if (report.code === 'INTERRUPTED') this.out.diag(`${report.message}${report.hint ? `\n${this.out.e.bold(report.hint)}` : ''}`);
    else this.out.diag(formatReport(report, this.out.e, (this.runtime.stderr as { columns?: number }).columns || 80));
    if (this.opts.verbose && error instanceof Error && error.stack && report.code === 'UNEXPECTED') {
      this.out.diag(this.out.e.dim(redactText(error.stack)));
    }
    return report.exit_code;
  }
}

export interface InputSpec<T> {
  /** The value from the command line, or undefined when missing. */
  value: T | undefined;
  /** How the missing value is named in the usage error, e.g. `--to ADDRESS`. */
  label: string;
  /** Asks a person for it. */
  ask?: (prompts: Prompts, soFar: Record<string, unknown>) => Promise<T>;
  /** Used without a terminal (and when there is no prompt). */
  default?: T;
}

/**
 * `--query EXPR` compiled (JMESPath, the `jmespath` package loaded only for it): a malformed
 * expression is a usage error before anything is sent.
 */
export async function compileQuery(expression: string): Promise<(data: unknown) => unknown> {
  const jmespath = await import('jmespath');
  try {
    jmespath.compile(expression);
  } catch (error) {
    throw new UsageError(`--query is not a JMESPath expression: ${(error as Error).message}`, 'see https://jmespath.org/tutorial.html');
  }
  return (data) => {
    try {
      return jmespath.search(data, expression);
    } catch (error) {
      throw new UsageError(`--query failed: ${(error as Error).message}`);
    }
  };
}

/** `orders get` for a command `get` under `orders` under the program. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Wrap a command implementation as a commander action: builds the context from the global
 * options, runs, reports errors as one line with the exit code, and always cleans up.
 */
export function action<A extends unknown[] = string[], O = Record<string, unknown>>(
  fn: (ctx: Context, input: { args: A; opts: O; cmd: Command }) => Promise<number | void>,
) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const opts = params[params.length - 2] as O;
    const args = params.slice(0, -2) as A;
    const run = runOf(cmd);
    const ctx = new Context(cmd.optsWithGlobals() as GlobalOptions, commandPath(cmd), run);
    try {
      if (ctx.opts.mock && ctx.opts.baseUrl) ctx.out.warn('--mock replaces --base-url for this run');
      if (ctx.opts.query !== undefined) ctx.out.setQuery(await compileQuery(ctx.opts.query));
      const code = await fn(ctx, { args, opts, cmd });
      run.exitCode = code ?? 0;
    } catch (error) {
      run.exitCode = await ctx.report(error);
    } finally {
      await ctx.dispose();
    }
  };
}
