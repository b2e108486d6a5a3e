/**
 * Everything the CLI takes from its process, injectable: `main(argv, runtime)` runs the CLI
 * in-process (tests) as well as for real (`bin/trx-rent.js`, which passes nothing and gets the
 * process's own streams, environment and signals). No file under src/cli touches
 * `process.stdout`, `process.stderr`, `process.stdin` or `process.env` except this one.
 */

/** Where output goes: a stream, or anything with `write`. */
export interface CliWriter {
  write(chunk: string): unknown;
  /** A terminal (colour, spinner, prompts, tables by default). */
  isTTY?: boolean | undefined;
  /** Terminal width, for help text. */
  columns?: number | undefined;
}

/** Where input comes from (raw bytes or text chunks). */
export interface CliReader extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean | undefined;
}

export interface CliRuntime {
  /** Every HTTP request of the run (SDK, x402, `webhooks listen --forward-to`). */
  fetch: typeof fetch;
  stdout: CliWriter;
  stderr: CliWriter;
  stdin: CliReader;
  /** The environment the settings are read from (TRX_RENT_*, NO_COLOR, TERM, SHELL …). */
  env: Readonly<Record<string, string | undefined>>;
  /** Profiles directory; default `env.TRX_RENT_CONFIG_DIR`, else the XDG config dir. */
  configDir: string | undefined;
  /**
   * Resolves on the first interrupt (SIGINT or SIGTERM for a real process); ends `mock` and
   * `webhooks listen`, and interrupts waits. Aborting `stop` stops listening (the promise then
   * never settles), so Ctrl+C after a wait is the default again.
   */
  untilSignal: (stop?: AbortSignal) => Promise<string>;
}

let epipeHandled = false;

/** The real process's runtime, with `overrides` on top. */
export function resolveRuntime(overrides: Partial<CliRuntime> = {}): CliRuntime {
  const env = overrides.env ?? process.env;
  if (!overrides.stdout && !epipeHandled) {
    epipeHandled = true;
    // Reading stops quietly when the reader goes away (`trx-rent orders list --json | head`).
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') process.stderr.write(`error WRITE_FAILED: ${error.message}\n`);
    });
  }
  return {
    fetch: overrides.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    stdout: overrides.stdout ?? process.stdout,
    stderr: overrides.stderr ?? process.stderr,
    stdin: overrides.stdin ?? process.stdin,
    env,
    configDir: overrides.configDir ?? (env.TRX_RENT_CONFIG_DIR || undefined),
    untilSignal: overrides.untilSignal ?? processSignal,
  };
}

/** Whether `stream` is one of this process's own standard streams (prompts use those by default). */
export function isProcessStream(stream: unknown): boolean {
  return stream === process.stdin || stream === process.stdout || stream === process.stderr;
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them, as it does when `stop` aborts). */
function processSignal(stop?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (stop?.aborted) return;
    const off = () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      stop?.removeEventListener('abort', off);
    };
    const handler = (signal: NodeJS.Signals) => {
      off();
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    stop?.addEventListener('abort', off, { once: true });
  });
}
