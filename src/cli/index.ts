/**
 * The `trx-rent` CLI entry. Imports only commander and the static registry: `--help` and
 * `--version` load no SDK transport, zod, conf, prompts, msw, tronweb or viem. A command's
 * module is imported when that command is dispatched (commander's preSubcommand hook, which also
 * runs for `<command> --help` and `help <command>`), and registers its own arguments, options,
 * subcommands and actions on the placeholder.
 */
import { readFileSync } from 'node:fs';
import { createProgram, loadCommand } from './program.js';
import { findEntry } from './registry.js';
import { runState } from './state.js';

const EXIT_USAGE = 2;

function readVersion(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

/** Runs the CLI with `process.argv`-style arguments; resolves to the exit code. */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const args = argv.slice(2);
  // The fastest path of all: `trx-rent --version` needs nothing but package.json.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  // Reading stops quietly when the reader goes away (`trx-rent orders list --json | head`).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.stderr.write(`error WRITE_FAILED: ${error.message}\n`);
  });

  const { Command, CommanderError } = await import('commander');
  runState.exitCode = 0;
  runState.version = readVersion();
  const { program, state } = createProgram(Command, runState.version);
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
    await program.parseAsync(argv as string[]);
    return runState.exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    // `help` asked for is 0; `trx-rent` or `trx-rent orders` alone prints the help to stderr: a usage error.
    if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : EXIT_USAGE;
    const message = (state.commanderMessage ?? error.message.replace(/^error:\s*/, '')).replace(/\s*\n\s*/g, ' ');
    const wantsJson = args.includes('--json') || (!args.includes('--no-json') && !process.stdout.isTTY);
    const report = { code: 'USAGE_ERROR', message, hint: 'see --help', exit_code: EXIT_USAGE };
    process.stderr.write(wantsJson ? `${JSON.stringify({ error: report })}\n` : `error USAGE_ERROR: ${message} (hint: see --help)\n`);
    return EXIT_USAGE;
  }
}

export default main;
