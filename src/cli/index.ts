/**
 * The `trx-rent` CLI entry. Imports only commander and the static registry: `--help` and
 * `--version` load no SDK transport, zod, the profile store, prompts, msw, tronweb or viem. A command's
 * module is imported when that command is dispatched (commander's preSubcommand hook, which also
 * runs for `<command> --help` and `help <command>`), and registers its own arguments, options,
 * subcommands and actions on the placeholder.
 *
 * `main` never exits the process: it resolves to the exit code (`bin/trx-rent.js` sets
 * `process.exitCode`). Each call has its own run state and runtime (streams, environment, fetch,
 * config dir, signals), so tests run it in-process, many times, side by side.
 */
import { readFileSync } from 'node:fs';
import { createProgram, loadCommand } from './program.js';
import { KNOWN_FIELDS } from './facts.js';
import { REGISTRY, findEntry } from './registry.js';
import { type CliRuntime, resolveRuntime } from './runtime.js';
import { sanitizeText, safeJson } from './sanitize.js';
import { createRun } from './state.js';

export type { CliReader, CliRuntime, CliWriter } from './runtime.js';

const EXIT_USAGE = 2;

let version: string | undefined;
function readVersion(): string {
  if (version === undefined) {
    try {
      version = String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

/**
 * Commander's message for a usage error, without any option value the user typed: an unknown
 * `--api-key=sk_live_…` is reported as `--api-key` (the value may be a secret, and error output
 * ends up in logs and CI transcripts).
 */
export function withoutOptionValues(message: string): string {
  return (
    message
      .replace(/'(--?[A-Za-z0-9][\w-]*)=[^']*'/g, "'$1'")
      // a short flag glued to its value (-kVALUE); not commander's own '-d, --duration <value>'
      .replace(/'(-[A-Za-z0-9])[^'\s,-][^']*'/g, "'$1'")
  );
}

// Global options that take a value (their value is not the command word).
const VALUE_OPTIONS = new Set(['--base-url', '--profile', '--api-key-file', '--query', '-q']);
const FIELD_LIST = /^[A-Za-z_][\w]*(?:,[A-Za-z_][\w]*)*$/;

/**
 * `--json FIELDS` as commander options: `--json` stays a plain switch (so `--json` before a
 * command or an argument never swallows it) and the field list becomes `--json-fields FIELDS`.
 * The word after `--json` is the field list when it is `--json=FIELDS`, holds a comma, or is a
 * known field name (`--json id`); not when it is the command itself (`trx-rent --json status`).
 */
export function expandJsonFields(args: readonly string[]): string[] {
  const out: string[] = [];
  let commandSeen = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (arg.startsWith('--json=')) {
      const fields = arg.slice('--json='.length);
      out.push('--json', ...(fields ? ['--json-fields', fields] : []));
      continue;
    }
    if (arg === '--json') {
      const next = args[i + 1];
      const isCommand = !commandSeen && next !== undefined && REGISTRY.some((e) => e.name === next);
      if (next !== undefined && !isCommand && FIELD_LIST.test(next) && (next.includes(',') || KNOWN_FIELDS.has(next))) {
        out.push('--json', '--json-fields', next);
        i++;
        continue;
      }
      out.push(arg);
      continue;
    }
    if (!arg.startsWith('-')) commandSeen = true;
    else if (VALUE_OPTIONS.has(arg) && i + 1 < args.length) {
      out.push(arg, args[++i]!);
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * The words `expandJsonFields` left after a `--json` as arguments (not a field list, not the
 * command): when commander then finds too many arguments, one of these is the likely cause.
 */
export function wordsAfterJson(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] === '--') break;
    const next = args[i + 1]!;
    if (args[i] === '--json' && next !== '--json-fields' && !next.startsWith('-') && !REGISTRY.some((e) => e.name === next)) words.push(next);
  }
  return words;
}

/**
 * Runs the CLI with the arguments after the program name (`process.argv.slice(2)`); resolves
 * to the exit code. `runtime` replaces parts of the process (see `CliRuntime`).
 */
export async function main(argv: readonly string[] = process.argv.slice(2), runtime: Partial<CliRuntime> = {}): Promise<number> {
  const args = expandJsonFields(argv);
  const rt = resolveRuntime(runtime);
  // The fastest path of all: `trx-rent --version` needs nothing but package.json.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    rt.stdout.write(`${readVersion()}\n`);
    return 0;
  }

  const { Command, CommanderError, Option } = await import('commander');
  const run = createRun(rt, readVersion());
  const program = createProgram(Command, run, Option);
  program.hook('preSubcommand', async (_root, sub) => {
    const entry = findEntry(sub.name());
    if (entry) await loadCommand(sub, entry);
  });
  // `help <command>` shows the placeholder's help without dispatching: load the module first.
  const words = args.filter((a) => !a.startsWith('-'));
  if (words[0] === 'help' && words[1]) {
    const entry = findEntry(words[1]);
    const sub = program.commands.find((c) => c.name() === words[1]);
    if (entry && sub) await loadCommand(sub, entry);
  }

  try {
    await program.parseAsync(args, { from: 'user' });
    return run.exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    // `help` asked for is 0; `trx-rent` or `trx-rent orders` alone prints the help to stderr: a usage error.
    if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : EXIT_USAGE;
    const raw = (run.commanderMessage ?? error.message.replace(/^error:\s*/, '')).replace(/\s*\n\s*/g, ' ');
    let message = withoutOptionValues(raw);
    let hint = 'see --help';
    // `--json nonsense`: the word was not a field name, so it became an extra argument. Say so.
    const stray = error.code === 'commander.excessArguments' ? wordsAfterJson(args) : [];
    if (stray.length) {
      message = `"${stray[0]}" after --json is not a field name of this output, and the command takes no further argument`;
      hint = 'name fields with --json=FIELDS or a comma list (--json id,status); an unknown field is then named with the available ones';
    }
    const wantsJson = args.includes('--json') || (!args.includes('--no-json') && !rt.stdout.isTTY);
    // A key given as a flag would sit in shell history and process lists: say where keys go.
    if (/unknown option '--(api-key|token|key)'/.test(message)) {
      hint =
        'an API key is never a flag value (it would land in shell history): set TRX_RENT_API_KEY, pass --api-key-file FILE (- for stdin), or save it with `trx-rent login`';
    }
    if (/unknown option '--(mnemonic|seed|passphrase|words)'/.test(message)) {
      hint =
        'wallet words are never a flag value (they would land in shell history and the process list): pass --mnemonic-file FILE (- for stdin), --seed-file FILE or --passphrase-file FILE';
    }
    const report = { code: 'USAGE_ERROR', message, hint, exit_code: EXIT_USAGE };
    rt.stderr.write(wantsJson ? `${safeJson({ error: report })}\n` : `${sanitizeText(`error USAGE_ERROR: ${message} (hint: ${hint})`)}\n`);
    return EXIT_USAGE;
  }
}

export default main;
