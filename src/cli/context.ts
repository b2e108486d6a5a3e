/**
 * The per-run context every command action receives: the composition root of a run. It holds
 * the resolved global options, the output (`ctx.out`), the run's runtime (streams, environment,
 * fetch, signals) and cleanups, and makes the services a command asks for on first use, each in
 * `services/`: `ctx.config` (profiles, settings), `ctx.clients` (the SDK), `ctx.chain` (the TRON
 * node and transfers), `ctx.ask` (prompts), `ctx.mocks` (mock servers). Nothing heavy is
 * imported at the top of this file or of the services.
 *
 * Settings (base URL, API key, profile, secrets) resolve in `settings.ts`: flag > environment >
 * profile, each value with its source. `--mock` replaces base URL and key with an embedded mock
 * server's for the run.
 */
import type { Command } from 'commander';
import { redactText } from '../internal/redact.js';
import { InterruptedError, UsageError } from './errors.js';
import { formatReport, reportFor } from './error-report.js';
import type { GlobalOptions } from './options.js';
import type { Output } from './output.js';
import type { CliReader, CliRuntime } from './runtime.js';
import { type Run, runOf, spendsAt } from './state.js';
import { readStdin, readStdinBytes } from './stdin.js';
import { ChainService } from './services/chain.js';
import { ClientService } from './services/client.js';
import { ConfigService } from './services/config.js';
import { MockService } from './services/mock.js';
import { createOutput } from './services/output.js';
import { PromptService } from './services/prompts.js';

/** One command run: its options, output, process concerns, and the services it asks for. */
export class Context {
  readonly opts: GlobalOptions;
  readonly out: Output;
  readonly run: Run;
  readonly runtime: CliRuntime;
  /** The run's environment (never `process.env` directly). */
  readonly env: CliRuntime['env'];
  /** A person is there: stdin and stdout are TTYs, and neither --json nor --yes rules prompts out. */
  readonly interactive: boolean;
  /** e.g. `orders get` */
  readonly commandPath: string;
  /** Money the running command is about to spend (for the INSUFFICIENT_BALANCE hint). */
  spending: { sun: number; currency: 'TRX' | 'USDT' } | undefined;

  #disposers: Array<() => unknown> = [];
  #config: ConfigService | undefined;
  #clients: ClientService | undefined;
  #chain: ChainService | undefined;
  #ask: PromptService | undefined;
  #mocks: MockService | undefined;

  /** The command spends money (its registry entry says so): a mock the CLI found is named on stderr in every mode. */
  readonly spends: boolean;

  constructor(opts: GlobalOptions, commandPath: string, run: Run, spends = false) {
    this.opts = opts;
    this.spends = spends;
    this.run = run;
    this.runtime = run.runtime;
    this.env = run.runtime.env;
    this.commandPath = commandPath;
    this.out = createOutput(opts, run.runtime);
    const { stdin, stdout } = run.runtime;
    this.interactive = Boolean(stdin.isTTY) && Boolean(stdout.isTTY) && this.out.mode === 'human' && !opts.yes;
  }

  // ---- services -----------------------------------------------------------------------

  /** Profiles and settings: the profile store, the profile in effect, base URL and API key with their sources. */
  get config(): ConfigService {
    this.#config ??= new ConfigService({
      opts: this.opts,
      runtime: this.runtime,
      out: this.out,
      debug: (m) => this.debug(m),
      mock: () => this.mocks.embedded(),
      spends: this.spends,
    });
    return this.#config;
  }

  /** The SDK: `ctx.clients.api('orders')`, `ctx.clients.client()`, `ctx.clients.clientFor(url, key)`. */
  get clients(): ClientService {
    this.#clients ??= new ClientService({
      config: this.config,
      runtime: this.runtime,
      verbose: Boolean(this.opts.verbose),
      version: this.version,
      debug: (m) => this.debug(m),
      onRetry: (event) => this.out.retrying(event),
    });
    return this.#clients;
  }

  /** The TRON chain: `ctx.chain.handles(node)`, `ctx.chain.tronNode()`, the transfer store. */
  get chain(): ChainService {
    this.#chain ??= new ChainService({
      config: this.config,
      clients: this.clients,
      runtime: this.runtime,
      mock: Boolean(this.opts.mock),
      out: this.out,
      debug: (m) => this.debug(m),
    });
    return this.#chain;
  }

  /** Asking a person: `ctx.ask.confirm()`, `ctx.ask.inputs()`, `ctx.ask.prompts()`. */
  get ask(): PromptService {
    this.#ask ??= new PromptService({ interactive: this.interactive, opts: this.opts, runtime: this.runtime, hold: () => this.out.hold() });
    return this.#ask;
  }

  /** Mock servers: the embedded one of `--mock`, and any the command starts; closed with the run. */
  get mocks(): MockService {
    this.#mocks ??= new MockService({ onDispose: (fn) => this.onDispose(fn), debug: (m) => this.debug(m) });
    return this.#mocks;
  }

  // ---- the process --------------------------------------------------------------------

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

  /** Run `fn` when the run ends (last registered, first run), whatever the outcome. */
  onDispose(fn: () => unknown): void {
    this.#disposers.push(fn);
  }

  /** Run the cleanups (a failing one is logged with --verbose and the rest still run). */
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

  // ---- errors -------------------------------------------------------------------------

  /** Print the one-line error report (stderr) and return the exit code. */
  async report(error: unknown): Promise<number> {
    const node = this.#chain?.resolvedNode;
    const last = this.#clients?.last;
    const report = await reportFor(error, {
      // The base URL in use, when resolved: the settings', or the last client's.
      baseUrl: this.#config?.connection?.baseUrl?.value ?? last?.http.baseUrl,
      baseUrlSource: this.#config?.connection?.baseUrl?.source,
      apiKeySource: this.#config?.connection?.apiKey?.source,
      tronNode: node ? { url: node.url ?? 'https://api.trongrid.io', source: node.source } : undefined,
      command: this.commandPath,
      spending: this.spending,
      balance: last ? async () => (await last.get('balance')).get({ maxRetries: 0, timeoutMs: 5_000 }) : undefined,
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
    const ctx = new Context(cmd.optsWithGlobals() as GlobalOptions, commandPath(cmd), run, spendsAt(cmd));
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
