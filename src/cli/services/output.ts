/**
 * The output service: the run's `Output` (see `../output.ts`) made from the global options and
 * the run's streams: JSON or human mode, `--json FIELDS`, the terminal's width, colour and spinner.
 * @module
 */
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { Output } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { colorEnabled } from '../styles.js';

/**
 * The run's output: JSON when asked (`--json`, `--query`, `--json FIELDS`) or when stdout is not
 * a terminal (unless `--no-json`); human otherwise, fitted to the terminal unless `--wide`.
 */
export function createOutput(opts: GlobalOptions, runtime: Pick<CliRuntime, 'env' | 'stdout' | 'stderr'>): Output {
  const { env, stdout, stderr } = runtime;
  const stdoutTTY = Boolean(stdout.isTTY);
  const shaped = Boolean(opts.query || opts.jsonFields);
  const mode = opts.json === true || shaped || (opts.json !== false && !stdoutTTY) ? 'json' : 'human';
  const fields = opts.jsonFields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return new Output({
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
}
