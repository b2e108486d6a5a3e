/**
 * The commander program: global options and one placeholder per registry entry. Imports only
 * commander's types; `main()` passes the class in after loading it.
 */
import type { Command as CommandClass, Option as OptionClass } from 'commander';
import { helpAfter } from './examples.js';
import { REGISTRY, type RegistryEntry } from './registry.js';
import { type Run, attachRun, declareSpending, runOf } from './state.js';

const GLOBAL_HELP = `
Settings (flag > environment > profile):
  base URL   --base-url, TRX_RENT_BASE_URL, or the profile saved by \`trx-rent login\`
  API key    --api-key-file FILE, TRX_RENT_API_KEY, or the profile (never a flag value)
  profile    --profile, TRX_RENT_PROFILE, or the current profile (\`trx-rent profiles\`)
  config dir TRX_RENT_CONFIG_DIR (default: your XDG config dir)

Output: tables and colour on a terminal (cut to its width; --wide shows all); one JSON
document on stdout with --json or when stdout is not a terminal (--no-json forces tables):
a list is an array, one resource an object. --json id,status keeps those fields; --query
EXPR (JMESPath) selects, e.g. trx-rent orders list --query "[?status=='FILLED'].id".
Diagnostics go to stderr. NO_COLOR, --no-color, FORCE_COLOR and CLICOLOR_FORCE are honoured.

Exit codes: 0 ok (also a declined confirmation) · 1 API or network error · 2 usage or
validation error · 3 authentication or permission · 4 not found · 5 rate limited
· 130 interrupted (Ctrl+C)

Try it without an account: trx-rent demo`;

const GROUP_ORDER = ['Trading', 'Account', 'Money', 'Setup', 'Developer'];

/** The program of one run: its help and errors go to the run's writers, its actions find the run. */
export function createProgram(Command: typeof CommandClass, run: Run, Option: typeof OptionClass): CommandClass {
  const { stdout, stderr } = run.runtime;
  const program = new Command('trx-rent');
  attachRun(program, run);
  program
    .description('Rent TRON energy and bandwidth from the command line (SDK, CLI and mock server).')
    .version(run.version, '-V, --version', 'print the version')
    .option('--base-url <url>', 'API origin, e.g. https://api.example.com (env TRX_RENT_BASE_URL)')
    .option('--profile <name>', 'profile to use (env TRX_RENT_PROFILE)')
    .option('--api-key-file <path>', 'read the API key from this file (or env TRX_RENT_API_KEY)')
    .option('--json', 'one JSON document on stdout (default when stdout is not a terminal); `--json id,status` keeps those fields')
    .option('--no-json', 'tables and text even when stdout is not a terminal')
    .option(
      '-q, --query <jmespath>',
      'print what this JMESPath expression selects from the JSON (implies --json; a string prints bare), e.g. "[?status==\'FILLED\'].id"',
    )
    .option('--wide', 'tables at full width (on a terminal they are cut to fit, with …)')
    .option('-y, --yes', 'answer yes to confirmations; never prompt')
    .option('--mock', 'run against an embedded in-process mock server')
    .option('--verbose', 'log requests, retries and status codes to stderr (secrets redacted)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .addOption(new Option('--json-fields <fields>').hideHelp())
    .addHelpText('after', GLOBAL_HELP)
    .showSuggestionAfterError(true)
    // Global options are listed once (`trx-rent --help`); each command's help ends with a pointer there.
    .configureHelp({ showGlobalOptions: false })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void stdout.write(text),
      writeErr: (text) => void stderr.write(text),
      getOutHelpWidth: () => (stdout.isTTY && stdout.columns) || 80,
      getErrHelpWidth: () => (stderr.isTTY && stderr.columns) || 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      outputError: (message) => {
        run.commanderMessage = message.replace(/^error:\s*/, '').trim();
      },
    });
  const ordered = [...REGISTRY].sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
  for (const entry of ordered) {
    program.command(entry.name).summary(entry.summary).description(entry.summary).helpGroup(`${entry.group}:`);
  }
  return program;
}

const loaded = new WeakSet<CommandClass>();

/** EXAMPLES and the global-options footer under the help of `cmd` and each of its subcommands. */
function addExamples(cmd: CommandClass, path: string): void {
  cmd.addHelpText('after', helpAfter(path));
  for (const child of cmd.commands) if (child.name() !== 'help') addExamples(child, `${path} ${child.name()}`);
}

/** Load every registry entry's module onto `program` (for the completion scripts). */
export async function loadAllCommands(program: CommandClass): Promise<CommandClass> {
  for (const entry of REGISTRY) {
    const sub = program.commands.find((c) => c.name() === entry.name);
    if (sub) await loadCommand(sub, entry);
  }
  return program;
}

/** Import a command's module and let it register its arguments, options, subcommands and actions. */
export async function loadCommand(sub: CommandClass, entry: RegistryEntry): Promise<void> {
  if (loaded.has(sub)) return;
  loaded.add(sub);
  if (entry.spends) declareSpending(sub, entry.spends);
  const mod = (await entry.load()).default;
  sub.description(mod.description || entry.summary);
  if (mod.register) {
    mod.register(sub, { loadAll: () => loadAllCommands(sub.parent ?? sub) });
    addExamples(sub, entry.name);
  } else {
    sub
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async () => {
        const run = runOf(sub);
        run.runtime.stderr.write(`error NOT_AVAILABLE: \`trx-rent ${entry.name}\` is not available in this build\n`);
        run.exitCode = 1;
      });
  }
}
