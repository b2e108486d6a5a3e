/**
 * `trx-rent rules`: standing rules from a rules file (JSON, or YAML named .yaml/.yml) (check, plan, run, backtest, log,
 * service). The runner lives in the SDK (`src/workflows/rules/`), loaded here lazily.
 *
 * Exit codes of `rules run`: 0 stopped cleanly (SIGTERM/Ctrl+C after the step in flight, or
 * --max-ticks reached), 1 it could not start (API or configuration error), 2 the rules file is
 * invalid, 3 the key is missing. An error in one step is reported (a decision line, a `rule.error`
 * notification) and the runner goes on.
 *
 * `plan` and `log` name the journal they read on stderr and refuse a missing one
 * (JOURNAL_NOT_FOUND, exit 4) unless `--allow-missing-journal`: limits counted from a journal
 * that is not there would say "would act" for a rule that already spent its day. Every journal
 * line and webhook URL printed has its credentials masked.
 *
 * `--store` (or `TRX_RENT_STORE`): the rules journal `rules` of a store instead of a journal file:
 * a `postgres://` URL (runners on several hosts sharing one database share windows and limits),
 * or a folder for the file store. Its credentials are never printed.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { redactDeep, redactText } from '../../internal/redact.js';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { parseDuration, parseInteger } from '../parse.js';
import type { CommandModule } from '../types.js';

type Rules = typeof import('../../workflows/rules/index.js');
const rulesModule = (): Promise<Rules> => import('../../workflows/rules/index.js');
const DEFAULT_JOURNAL = 'rules.journal.jsonl';

async function load(file: string) {
  const m = await rulesModule();
  try {
    return { m, rules: await m.loadRules(file) };
  } catch (error) {
    if (error instanceof m.RulesFileError) throw new CliError('VALIDATION_ERROR', error.message, { exitCode: EXIT.USAGE });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no such file: ${file}`);
    throw error;
  }
}

/** The SDK parts the runner uses, from the run's lazily loaded client. */
async function rulesClient(ctx: Context, node: string | undefined) {
  const [orders, prices, chain] = await Promise.all([ctx.clients.api('orders'), ctx.clients.api('prices'), ctx.chain.handles(node)]);
  return { orders, prices, chain: chain.chain };
}

function decisionLine(d: {
  rule: string;
  outcome: string;
  window: string;
  reason?: string | undefined;
  summary?: string | undefined;
  cost_sun?: number | undefined;
  order_ids?: string[] | undefined;
  notify_error?: string | undefined;
}): string {
  const cost = d.cost_sun === undefined ? '' : ` (${d.cost_sun / 1e6} TRX)`;
  const what = d.summary ?? d.reason ?? '';
  const hook = d.notify_error ? ` (${redactText(d.notify_error)})` : '';
  return `${d.rule}: ${d.outcome.replace('_', ' ')}${what ? ` - ${what}` : ''}${cost}${d.order_ids?.length ? ` orders ${d.order_ids.join(', ')}` : ''}${d.window ? ` [${d.window}]` : ''}${hook}`;
}

interface JournalOptions {
  journal?: string;
  allowMissingJournal?: boolean;
  store?: string;
}

/** `--store`, else `TRX_RENT_STORE`: where the rules journal lives instead of a file; refused with --journal. */
function storeSpec(ctx: Context, opts: JournalOptions): string | undefined {
  const spec = opts.store ?? (ctx.env.TRX_RENT_STORE || undefined);
  if (spec !== undefined && opts.journal !== undefined) {
    throw new UsageError(
      `give --journal (a journal file) or --store${opts.store === undefined ? ' (here TRX_RENT_STORE)' : ''} (a store's rules journal), not both`,
    );
  }
  return spec;
}

/** The rules journal of the store `spec`, named on stderr by where it is (never its credentials). */
async function storeJournal(ctx: Context, m: Rules, spec: string) {
  const { openStore } = await import('../../store/open.js');
  const store = await openStore(spec);
  ctx.out.diag(`Journal: rules in the ${store.kind} store ${store.where}`);
  return { store, journal: m.storeRulesJournal(store), where: `rules in the ${store.kind} store ${store.where}` };
}

/** The entries a reading command counts from: a store's rules journal, or the journal file (see {@link journalToRead}). */
async function entriesToRead(
  ctx: Context,
  m: Rules,
  opts: JournalOptions,
): Promise<{ entries: readonly import('../../workflows/rules/index.js').RulesJournalEntry[]; source: string | null }> {
  const spec = storeSpec(ctx, opts);
  if (spec !== undefined) {
    const { store, journal, where } = await storeJournal(ctx, m, spec);
    try {
      return { entries: await journal.entries(), source: where };
    } finally {
      await journal.close();
      await store.close();
    }
  }
  const source = journalToRead(ctx, opts);
  return { entries: source.exists ? await m.readJournalFile(source.path) : [], source: source.exists ? source.path : null };
}

/**
 * The journal a reading command counts from, named on stderr (both output modes). A missing one
 * is JOURNAL_NOT_FOUND unless `--allow-missing-journal` (then it reads as empty).
 */
function journalToRead(ctx: Context, opts: JournalOptions): { path: string; exists: boolean } {
  const path = resolve(opts.journal ?? DEFAULT_JOURNAL);
  const exists = existsSync(path);
  const given = opts.journal === undefined ? ' (the default; no --journal given)' : '';
  if (!exists && !opts.allowMissingJournal) {
    throw new CliError('JOURNAL_NOT_FOUND', `no rules journal at ${path}${given}`, {
      exitCode: EXIT.NOT_FOUND,
      hint: 'give the journal `rules run --execute` writes with --journal PATH, or pass --allow-missing-journal to read none (as if no rule had acted yet)',
    });
  }
  ctx.out.diag(exists ? `Journal: ${path}${given}` : `Journal: none at ${path}${given}: reading it as empty (--allow-missing-journal)`);
  return { path, exists };
}

async function check(ctx: Context, file: string, opts: { offline?: boolean }) {
  const { m, rules } = await load(file);
  const explained = rules.rules.map((r) => ({ id: r.id, explanation: m.explainRule(r) }));
  const warnings = [...m.notifyWarnings(rules, ctx.env), ...(opts.offline ? [] : await m.probeWebhooks(rules))];
  for (const w of warnings) ctx.out.warn(w);
  ctx.out.result(
    { file, valid: true, rules: explained, warnings },
    () =>
      `${file}: ${rules.rules.length} rule${rules.rules.length === 1 ? '' : 's'}, valid${warnings.length ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'} above)` : ''}\n${explained.map((r) => `  ${r.explanation}`).join('\n')}\n`,
  );
}

async function plan(ctx: Context, file: string, opts: { node?: string } & JournalOptions) {
  const { m, rules } = await load(file);
  const source = await entriesToRead(ctx, m, opts);
  const journal = new m.MemoryJournal(source.entries);
  const runner = new m.RuleRunner({ client: await rulesClient(ctx, opts.node), rules, journal, dryRun: true });
  const decisions = await runner.plan();
  // Quiet: every decision of the rule is "nothing" (its trigger did not fire, or nothing is missing); each says why.
  const quiet = rules.rules.filter((r) => decisions.every((d) => d.rule !== r.id || d.outcome === 'nothing')).map((r) => r.id);
  ctx.out.result({ file, journal: source.source, decisions, quiet }, () => {
    const lines = decisions.map((d) => `  ${decisionLine(d)}`);
    const spend = decisions.reduce((s, d) => s + (d.outcome === 'would_act' ? (d.cost_sun ?? 0) : 0), 0);
    return `Plan for ${file} now (nothing is spent):\n${lines.join('\n')}\n  would spend about ${spend / 1e6} TRX\n`;
  });
}

interface RunOptions {
  execute?: boolean;
  journal?: string;
  store?: string;
  node?: string;
  tick: string;
  rps: string;
  maxTicks?: string;
}

async function run(ctx: Context, file: string, opts: RunOptions) {
  const { m, rules } = await load(file);
  const tickMs = parseDuration(opts.tick, '--tick') * 1000;
  const rps = Number(opts.rps);
  if (!(rps > 0 && rps <= 1000)) throw new UsageError(`--rps must be a number of requests per second (0-1000], got ${JSON.stringify(opts.rps)}`);
  const maxTicks = opts.maxTicks === undefined ? undefined : parseInteger(opts.maxTicks, '--max-ticks', { min: 1 });
  const execute = opts.execute === true;
  const journalPath = resolve(opts.journal ?? DEFAULT_JOURNAL);
  const spec = storeSpec(ctx, opts);
  const inStore = spec === undefined ? undefined : await storeJournal(ctx, m, spec);
  const journal = inStore
    ? execute
      ? inStore.journal
      : new m.MemoryJournal(await inStore.journal.entries())
    : execute
      ? new m.FileJournal(journalPath)
      : new m.MemoryJournal(await m.readJournalFile(journalPath));
  const out = ctx.out;
  // The status line: redrawn after each tick; a decision line is printed above it.
  let status: { update(text: string): void; stop(final?: string): void } = { update() {}, stop() {} };
  let statusText = '';
  const runner = new m.RuleRunner({
    client: await rulesClient(ctx, opts.node),
    rules,
    journal,
    tickMs,
    nodeRequestsPerSecond: rps,
    dryRun: !execute,
    notify: { writeLine: out.json ? (line) => out.line(JSON.parse(line)) : undefined, env: ctx.env },
    onDecision: (d) => {
      if (d.outcome === 'nothing' || (d.outcome === 'suppressed' && d.reason === 'window_done')) return;
      if (out.json) out.line({ type: 'decision', ...d });
      else {
        status.stop();
        out.print(`${decisionLine(d)}\n`);
        status = out.spinner(statusText || 'watching…');
      }
    },
    onTick: (s) => {
      statusText = `tick ${s.ticks}: ${s.watched_addresses} addresses, ${s.node_reads} node reads, ${s.acted} actions, ${s.spent_sun / 1e6} TRX${execute ? '' : ' (dry run)'}`;
      status.update(statusText);
    },
  });
  for (const w of runner.warnings) out.warn(w);
  const counted = inStore
    ? `in memory, limits counted from ${inStore.where}`
    : existsSync(journalPath)
      ? `in memory, limits counted from ${journalPath}`
      : `in memory; no journal at ${journalPath}, so limits count from nothing`;
  if (!out.json)
    out.print(
      `${execute ? 'Executing' : 'Dry run (no spend; --execute to spend)'}: ${rules.rules.length} rules, ${runner.stats.watched_addresses} addresses, reaction ${runner.stats.reaction_ms / 1000} s. Journal: ${execute ? (inStore?.where ?? journalPath) : counted}\n`,
    );
  status = out.spinner('first tick…');
  const stop = new AbortController();
  void ctx.untilSignal(stop.signal).then(() => {
    out.info('Stopping after the step in flight…');
    void runner.stop();
  });
  try {
    await runner.run({ maxTicks });
  } finally {
    stop.abort();
    status.stop();
    if (inStore) {
      await inStore.journal.close();
      await inStore.store.close();
    }
  }
  const s = runner.stats;
  // NDJSON to the end: the summary is one more line, not an indented document.
  if (out.json) out.line({ type: 'stopped', dry_run: !execute, stats: s });
  else
    out.result(
      { stopped: true, dry_run: !execute, stats: s },
      () => `Stopped after ${s.ticks} ticks: ${s.acted} actions, ${s.spent_sun / 1e6} TRX, ${s.node_reads} node reads.\n`,
    );
}

async function backtestCmd(ctx: Context, file: string, opts: { days: string; energyPerHour?: string }) {
  const { m, rules } = await load(file);
  const days = parseInteger(opts.days, '--days', { min: 1, max: 30 });
  const period = days <= 1 ? '24h' : days <= 7 ? '7d' : '30d';
  const prices = await ctx.clients.api('prices', { auth: false });
  const history = await prices.history({ resource: 'ENERGY', period });
  // The best price at each poll, across the providers that answered it.
  const best = new Map<number, number>();
  for (const e of history) {
    if (!e.is_online) continue;
    const at = typeof e.polled_at === 'number' ? e.polled_at * (e.polled_at < 1e12 ? 1000 : 1) : Date.parse(String(e.polled_at));
    best.set(at, Math.min(best.get(at) ?? Infinity, Number(e.price_sun)));
  }
  const points = [...best].map(([at, price_sun]) => ({ at, price_sun }));
  if (!points.length) throw new CliError('NOT_FOUND', 'the service returned no price history', { exitCode: EXIT.API });
  const end = Math.max(...points.map((p) => p.at));
  const result = m.backtest(rules, {
    prices: points,
    end,
    days,
    energyPerHour: opts.energyPerHour ? parseInteger(opts.energyPerHour, '--energy-per-hour', { min: 0 }) : undefined,
  });
  ctx.out.result(result, () => {
    const lines = result.rules.map(
      (r) =>
        `  ${r.rule}: ${r.runs} runs, ${r.spend_sun / 1e6} TRX${
          Object.keys(r.suppressed).length
            ? `, held back: ${Object.entries(r.suppressed)
                .map(([k, v]) => `${k} ×${v}`)
                .join(', ')}`
            : ''
        }`,
    );
    return (
      `Backtest of ${file} over ${days} days (${result.price_points} price points, ${result.from} to ${result.to}):\n${lines.join('\n')}\n` +
      `  runs ${result.runs}, spend ${result.spend_sun / 1e6} TRX; shortfalls burnt ${result.shortfall_burn_sun / 1e6} TRX\n` +
      `  burning for all ${result.energy_used} energy would have cost ${result.burn_all_sun / 1e6} TRX\n`
    );
  });
}

async function log(ctx: Context, opts: { rule?: string; limit: string } & JournalOptions) {
  const m = await rulesModule();
  const limit = parseInteger(opts.limit, '--limit', { min: 1 });
  const all = (await entriesToRead(ctx, m, opts)).entries;
  const entries = all
    .filter((e) => !opts.rule || e.rule === opts.rule)
    .slice(-limit)
    .map((e) => redactDeep(e));
  ctx.out.result(entries, () =>
    entries.length
      ? `${entries.map((e) => `${new Date(e.ts).toISOString()} ${e.rule} ${e.kind}${e.window ? ` [${e.window}]` : ''}${e.cost_sun !== undefined ? ` ${e.cost_sun / 1e6} TRX` : ''}${e.order_ids?.length ? ` ${e.order_ids.join(',')}` : ''}${e.reason ? ` ${e.reason}` : ''}`).join('\n')}\n`
      : 'The journal is empty.\n',
  );
}

function service(ctx: Context, opts: { print?: boolean; file: string; journal?: string }) {
  if (!opts.print)
    throw new UsageError(
      'rules service only prints a unit for now: pass --print',
      'trx-rent rules service --print > /etc/systemd/system/trx-rent-rules.service',
    );
  const unit = `[Unit]
Description=trx-rent standing rules
After=network-online.target
Wants=network-online.target

[Service]
# Put TRX_RENT_API_KEY (and any webhook secret) in this file, mode 0600.
EnvironmentFile=/etc/trx-rent/rules.env
WorkingDirectory=/var/lib/trx-rent
ExecStart=/usr/bin/env npx --yes trx-rent rules run ${opts.file} --execute --json --journal ${opts.journal ?? '/var/lib/trx-rent/rules.journal.jsonl'}
# SIGTERM: the runner finishes the step in flight, then exits 0.
KillSignal=SIGTERM
TimeoutStopSec=180
Restart=on-failure
RestartSec=10
DynamicUser=yes
StateDirectory=trx-rent
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes

[Install]
WantedBy=multi-user.target
`;
  ctx.out.raw(unit);
}

const command: CommandModule = {
  description:
    'Standing rules from a JSON rules file: keep addresses topped up and buy when cheap, with limits counted from a journal ' +
    'and idempotency keys from each trigger window, so a restart or a second runner never buys twice. ' +
    'Exit codes of run: 0 stopped cleanly, 1 could not start, 2 invalid rules file, 3 no key; an error in one step is reported and the runner goes on.',
  register(cmd: Command) {
    cmd.usage('check|plan|run|backtest|log|service FILE');
    cmd
      .command('check')
      .description('Validate a rules file and explain each rule in words; warn about a notify webhook that cannot be signed (secret variable unset) or reached')
      .argument('<file>')
      .option('--offline', 'do not try to connect to the webhooks (validate only)')
      .action(action<[string], { offline?: boolean }>((ctx, { args: [f], opts }) => check(ctx, f, opts)));
    cmd
      .command('plan')
      .description('What the rules would do now (reads and previews; spends nothing); a quiet rule says why')
      .argument('<file>')
      .option('--node <url>', 'TRON full node (env TRX_RENT_TRON_NODE)')
      .option('--journal <path>', `journal the limits are counted from (default ${DEFAULT_JOURNAL}); named on stderr`)
      .option('--allow-missing-journal', 'plan even when the journal does not exist (as if no rule had acted yet)')
      .option('--store <url|dir>', 'count from the rules journal of a store instead: postgres://… or a folder (env TRX_RENT_STORE)')
      .action(action<[string], { node?: string } & JournalOptions>((ctx, { args: [f], opts }) => plan(ctx, f, opts)));
    cmd
      .command('run')
      .description('Watch and act: a dry run unless --execute; a status line on a terminal, NDJSON with --json; stops on SIGTERM after the step in flight')
      .argument('<file>')
      .option('--execute', 'really spend (default: dry run)')
      .option('--journal <path>', `journal file (default ${DEFAULT_JOURNAL})`)
      .option('--store <url|dir>', 'keep the journal in a store instead: postgres://… (runners on several hosts share limits) or a folder (env TRX_RENT_STORE)')
      .option('--node <url>', 'TRON full node (env TRX_RENT_TRON_NODE)')
      .option('--tick <duration>', 'evaluation tick', '60s')
      .option('--rps <n>', 'TRON node requests per second, spread evenly', '10')
      .option('--max-ticks <n>', 'stop after this many ticks')
      .action(action<[string], RunOptions>((ctx, { args: [f], opts }) => run(ctx, f, opts)));
    cmd
      .command('backtest')
      .description("Replay the rules against the service's price history and a simulated usage pattern")
      .argument('<file>')
      .option('--days <n>', 'days to replay (at most 30)', '30')
      .option('--energy-per-hour <n>', 'energy each watched address spends per hour', '65000')
      .action(action<[string], { days: string; energyPerHour?: string }>((ctx, { args: [f], opts }) => backtestCmd(ctx, f, opts)));
    cmd
      .command('log')
      .description('Read the journal (named on stderr; a missing one is an error unless --allow-missing-journal)')
      .option('--journal <path>', `journal file (default ${DEFAULT_JOURNAL})`)
      .option('--allow-missing-journal', 'a missing journal reads as empty instead of an error')
      .option('--store <url|dir>', 'read the rules journal of a store instead: postgres://… or a folder (env TRX_RENT_STORE)')
      .option('--rule <id>', 'one rule only')
      .option('--limit <n>', 'last N entries', '50')
      .action(action<[], { rule?: string; limit: string } & JournalOptions>((ctx, { opts }) => log(ctx, opts)));
    cmd
      .command('service')
      .description('A systemd unit that runs the rules (--print)')
      .option('--print', 'print the unit')
      .option('--file <path>', 'rules file the unit runs', '/etc/trx-rent/rules.json')
      .option('--journal <path>', 'journal file')
      .action(action<[], { print?: boolean; file: string; journal?: string }>(async (ctx, { opts }) => service(ctx, opts)));
  },
};

export default command;
