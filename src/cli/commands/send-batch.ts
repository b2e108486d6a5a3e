/**
 * `trx-rent send usdt --batch payouts.csv`: many transfers with one rental (the payout workflow,
 * `src/workflows/payouts/`). Checks every row first (all bad rows reported, nothing spent),
 * shows the plan (rows, energy, what renting costs, what burning would, the saving) and asks,
 * then runs with a progress bar (or NDJSON events with --json). Ctrl+C stops cleanly and prints
 * the exact command that resumes; the same command after a crash resumes from the journal.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { PayoutEvent, PayoutPlan, PayoutReport } from '../../workflows/payouts/index.js';
import type { Context } from '../context.js';
import { isSymlink, writeFileAtomic } from '../../internal/atomic-file.js';
import { CliError, InterruptedError, UsageError } from '../errors.js';
import { formatDuration, groupDigits, sunAndTrx } from '../format.js';
import { parseDuration, parseTrx } from '../parse.js';
import { retryReason } from '../output.js';
import { type SignerChoice, type SignerFlags, senderOf, signerArgs } from '../transfer-signers.js';
import { storeSetting } from '../store-setting.js';

/** The options `send` takes for a batch (besides --key-file, --duration, --max-cost, --node). */
export interface BatchOptions {
  batch?: string;
  journal?: string;
  resume?: boolean;
  status?: boolean;
  report?: string;
  margin?: string;
  concurrency?: string;
  allowBurn?: boolean;
  allowDuplicates?: boolean;
  /** With `--store postgres://…`: how long a worker's claim on a row lasts. */
  lease?: string;
}

/** Declare the batch options on `send`. */
export function registerBatchOptions(cmd: Command): Command {
  return cmd
    .option('--batch <file>', 'send to many recipients with one rental: a CSV (to,amount[,id]) or JSON-lines file')
    .option('--journal <file>', 'the batch journal (default: beside the batch file, <file>.journal); the same command resumes from it')
    .option('--resume', 'go on with a stopped or crashed batch (its journal must exist)')
    .option('--status', "show each row's journaled state and its transaction on the chain, without resuming (nothing is spent)")
    .option('--report <file>', 'write the report (row, to, amount, tx id, status, energy, cost) as CSV, or JSON for a .json name')
    .option('--margin <percent>', 'energy rented beyond the estimates, percent', '10')
    .option('--concurrency <n>', 'rows in flight at once', '8')
    .option('--allow-burn', 'when energy runs short mid-batch, burn TRX instead of renting more')
    .option('--allow-duplicates', 'accept two rows paying the same amount to the same address')
    .option('--lease <duration>', 'with --store: how long a worker holds a row without renewing it (env TRX_RENT_STORE_LEASE; default 15s)');
}

const quote = (s: string) => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function bar(done: number, total: number, width = 24): string {
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

function renderPlan(p: PayoutPlan): string {
  const totals = p.totals.map((t) => `${t.amount} ${t.token}`).join(', ');
  const lines = [
    `Batch ${p.batch_key}: ${p.rows} rows, ${totals} from ${p.from}`,
    `  recipients  ${p.holders} holding the token, ${p.empty_recipients} empty (about twice the energy)`,
    `  energy      needs ${groupDigits(String(p.energy.needed))} (+${p.energy.margin_pct} % margin: ${groupDigits(String(p.energy.with_margin))}), has ${groupDigits(String(p.energy.available))}`,
    `  bandwidth   needs ${groupDigits(String(p.bandwidth.needed))}, has ${groupDigits(String(p.bandwidth.available))}`,
    `  renting     ${p.orders.length} order${p.orders.length === 1 ? '' : 's'} for ${formatDuration(p.duration_sec)}: ${p.orders.map((o) => `${groupDigits(String(o.amount))} ${o.resource.toLowerCase()} (${o.provider})`).join(', ') || 'nothing'}: ${sunAndTrx(p.rent_cost_sun)}`,
  ];
  if (p.energy.deferred)
    lines.push(`              ${groupDigits(String(p.energy.deferred))} more energy than the providers have now: rented mid-batch as needed`);
  lines.push(
    `  burning     ${sunAndTrx(p.burn_cost_sun)} instead`,
    `  one by one  ${sunAndTrx(p.single_sends_cost_sun)} as ${p.rows} single sends`,
    `  saving      ${sunAndTrx(p.saving_sun)} against burning`,
  );
  return `${lines.join('\n')}\n`;
}

function renderReport(r: PayoutReport, written?: string): string {
  const lines = [
    `${r.complete ? '✓' : '…'} ${r.confirmed} confirmed, ${r.failed} failed, ${r.pending} pending of ${r.rows.length} (batch ${r.batch_key})`,
    `  orders      ${r.orders.filter((o) => o.state === 'filled').length} filled: ${groupDigits(String(r.energy.rented))} energy rented, ${groupDigits(String(r.energy.used))} used`,
    `  cost        ${sunAndTrx(r.total_cost_sun)} (rental ${sunAndTrx(r.rent_cost_sun)}, burnt ${sunAndTrx(r.burned_sun)}); burning instead: ${sunAndTrx(r.burn_cost_sun)}`,
    `  journal     ${r.journal ?? '(memory)'} (${groupDigits(String(r.journal_bytes))} bytes)`,
  ];
  for (const f of r.rows.filter((x) => x.status === 'failed').slice(0, 10)) lines.push(`  failed      row ${f.id} to ${f.to}: ${f.reason ?? ''}`);
  if (written) lines.push(`  report      ${written}`);
  return `${lines.join('\n')}\n`;
}

function reportIsLink(file: string): UsageError {
  return new UsageError(`--report ${file} is a symbolic link: refusing to write through it`, 'remove the link or name another file');
}

/** The report, never through a symlink at its name: refused, or (one planted meanwhile) replaced by a rename. */
function writeReport(file: string, text: string): void {
  try {
    writeFileAtomic(file, text, { mode: 0o644, refuseSymlink: true });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ESYMLINK') throw reportIsLink(file);
    throw error;
  }
}

function reportText(r: PayoutReport, json: boolean): string {
  if (json) return `${JSON.stringify(r, null, 2)}\n`;
  const esc = (v: unknown) => (v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const rows = r.rows.map((x) => [x.id, x.to, x.amount, x.token, x.tx_id, x.status, x.energy_used, x.cost_sun, x.reason].map(esc).join(','));
  return `row,to,amount,token,tx_id,status,energy,cost_sun,reason\n${rows.join('\n')}\n`;
}

/** The batch flow of `send <token> --batch FILE`. */
export async function runSendBatch(
  ctx: Context,
  token: string,
  opts: BatchOptions & SignerFlags & { duration: string; maxCost?: string; node?: string; store?: string },
  senderKeys: (ctx: Context, flags: SignerFlags) => Promise<SignerChoice>,
): Promise<void> {
  const file = opts.batch!;
  if (!existsSync(file)) throw new UsageError(`--batch ${file}: no such file`);
  if (opts.report && isSymlink(opts.report)) throw reportIsLink(opts.report);
  // --store postgres://…: the batch's journal in the PostgreSQL store, shared by every worker running this command.
  const shared = storeSetting(ctx, opts.store, opts.lease);
  if (shared && opts.status) throw new UsageError('--status reads a journal file; for a batch on --store, run `trx-rent store status`');
  const journal = opts.journal ?? (shared ? `payouts:${basename(file)}` : `${file}.journal`);
  if (opts.resume && !shared && !existsSync(journal))
    throw new UsageError(`--resume: no journal at ${journal}`, 'pass --journal FILE, or start the batch without --resume');
  const margin = Number(opts.margin ?? '10');
  const concurrency = Number(opts.concurrency ?? '8');
  if (!Number.isFinite(margin) || margin < 0 || margin > 200) throw new UsageError('--margin must be a percentage from 0 to 200');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError('--concurrency must be a whole number from 1 to 64');
  const duration = parseDuration(opts.duration);
  const maxCostSun = opts.maxCost ? parseTrx(opts.maxCost, '--max-cost') : undefined;
  const payoutsModule = await import('../../workflows/payouts/index.js');
  const { payouts, where } = payoutsModule.parsePayouts(readFileSync(file, 'utf8'));
  // Every bad row, before the key is even asked for: nothing is spent on a bad file.
  payoutsModule.checkPayouts(payouts, { token, allowDuplicates: opts.allowDuplicates }, where);
  const signing = await senderKeys(ctx, opts);
  const { chain } = await ctx.chain.handles(opts.node);
  if (opts.status) return showStatus(ctx, payoutsModule, token, payouts, where, await senderOf(signing), journal, await chain.node());
  const client = await ctx.clients.client();
  const [orders, prices, transactions] = await Promise.all([client.get('orders'), client.get('prices'), client.get('transactions')]);
  // The journal is bound to this service and account: a resume anywhere else is refused.
  const deps = { orders, prices, transactions, chain, node: await chain.node(), clock: client.http.clock, service: client.http.account() };
  const out = ctx.out;
  const resume = [
    'trx-rent send',
    quote(token),
    '--batch',
    quote(file),
    '--journal',
    quote(journal),
    ...signerArgs(opts, quote),
    ...(opts.node ? ['--node', quote(opts.node)] : []),
    '--resume',
  ].join(' ');

  let bar_: ReturnType<typeof out.spinner> | undefined;
  const onEvent = (e: PayoutEvent) => {
    if (out.json) return out.line(e.event === 'planned' ? { event: 'planned', plan: e.plan } : e);
    if (e.event === 'progress') bar_?.update(`${bar(e.confirmed + e.failed, e.total)} confirmed${e.failed ? ` (${e.failed} failed)` : ''}`);
    else if (e.event === 'order' && e.state === 'placing') bar_?.update(`Renting ${groupDigits(String(e.amount))} ${e.resource.toLowerCase()}…`);
    else if (e.event === 'delegated') bar_?.update(`${groupDigits(String(e.energy))} energy on the node; sending…`);
    else if (e.event === 'waiting')
      bar_?.update(
        `${retryReason({ host: e.host, status: e.status ?? undefined, code: e.code })}: row ${e.id} is sent again within ${Math.ceil(e.retry_in_ms / 1000)} s`,
      );
  };
  const run = new payoutsModule.PayoutRun(
    deps,
    payouts,
    {
      ...signing,
      token,
      journal: shared
        ? await (await import('../../workflows/payouts/shared-journal.js')).sharedPayoutJournal(shared.url, journal, { leaseMs: shared.leaseMs })
        : journal,
      marginPct: margin,
      duration,
      concurrency,
      maxCostSun,
      allowBurn: opts.allowBurn,
      allowDuplicates: opts.allowDuplicates,
      onEvent,
      // Asked on every run, a resume too (with what is left): a confirmation binds only what it showed.
      confirm: async (plan) => {
        bar_?.stop();
        bar_ = undefined;
        ctx.spending = { sun: plan.rent_cost_sun, currency: 'TRX' };
        out.print(renderPlan(plan));
        const r = plan.resume;
        await ctx.ask.confirm(
          r
            ? `Resume: ${r.confirmed} rows confirmed, ${r.pending} in flight; pay the ${plan.rows - r.confirmed - r.failed} rows left for about ${sunAndTrx(plan.rent_cost_sun + plan.deferred_cost_sun)} more rental (spent so far ${sunAndTrx(r.spent_sun)}${r.budget_sun !== undefined ? ` of ${sunAndTrx(r.budget_sun)} approved` : ''}${r.budget_after_sun !== r.budget_sun ? `; the batch's budget becomes ${sunAndTrx(r.budget_after_sun)}` : ''})?`
            : `Pay ${plan.rows} rows for about ${sunAndTrx(plan.rent_cost_sun)} of rental (burning: ${sunAndTrx(plan.burn_cost_sun)})?`,
          r ? 'resume the batch' : 'send the batch',
        );
        bar_ = out.spinner('Renting…');
        return true;
      },
      // A top-up past the confirmed cost is a new spend: asked at a terminal, never answered by
      // --yes (it confirmed the plan shown, not more); --max-cost is a hard cap and is not asked.
      confirmOverrun:
        maxCostSun === undefined && ctx.ask.interactive
          ? async (q) => {
              bar_?.stop();
              bar_ = undefined;
              await ctx.ask.confirm(
                `Energy ran short: renting ${q.energy.toLocaleString('en-US')} more energy costs ${sunAndTrx(q.cost_sun)}, past the confirmed cost (spent ${sunAndTrx(q.spent_sun)} of ${sunAndTrx(q.budget_sun)}). Raise the batch's budget to ${sunAndTrx(q.new_budget_sun)} and go on?`,
                'raise the batch budget',
              );
              bar_ = out.spinner('Renting…');
              return true;
            }
          : undefined,
    },
    where,
  );

  // Ctrl+C (or SIGTERM): nothing new is ordered or signed; rows in flight stay in the journal.
  const watching = new AbortController();
  let interrupted: string | undefined;
  void ctx.untilSignal(watching.signal).then(
    (signal) => {
      interrupted = signal;
      run.stop();
    },
    () => undefined,
  );
  let report: PayoutReport;
  try {
    if (!bar_ && !out.json) bar_ = out.spinner(opts.resume ? 'Resuming…' : 'Checking the rows…');
    report = await run.start();
  } catch (error) {
    bar_?.stop();
    if (interrupted)
      throw new InterruptedError(`Interrupted (${interrupted === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}): the batch stopped; its journal is ${journal}.`, {
        signal: interrupted,
        resume,
        details: { journal },
      });
    const code = (error as { code?: string }).code;
    if (code === 'JOURNAL_LOCKED') throw new CliError('JOURNAL_LOCKED', (error as Error).message, { hint: 'one runner per journal' });
    // Another batch's journal: a second journal would pay its rows again; say what to check instead.
    if (code === 'JOURNAL_MISMATCH')
      throw new CliError('JOURNAL_MISMATCH', (error as Error).message, {
        hint: `check the service (--base-url), the key file and the rows; \`trx-rent send ${token} --batch FILE --status\` shows what the journal paid`,
      });
    if (code === 'SPENDING_CAP_EXCEEDED' && (error as { details?: { budget_sun?: number } }).details?.budget_sun !== undefined) {
      throw new CliError('SPENDING_CAP_EXCEEDED', (error as Error).message, { hint: `to allow more, resume with: ${resume} --max-cost TRX` });
    }
    throw error;
  } finally {
    watching.abort();
  }
  bar_?.stop();
  let written: string | undefined;
  if (opts.report) {
    writeReport(opts.report, reportText(report, opts.report.endsWith('.json')));
    written = opts.report;
  }
  if (interrupted || !report.complete) {
    out.print(renderReport(report, written));
    const pending = report.rows.length - report.confirmed - report.failed;
    if (!interrupted)
      throw new CliError(
        'BATCH_INCOMPLETE',
        `${pending} rows are not final yet (their outcome is unknown until they land or expire); nothing is paid twice on resume.`,
        { hint: `resume with: ${resume}` },
      );
    throw new InterruptedError(
      `Interrupted (${interrupted === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}): ${report.confirmed} of ${report.rows.length} rows confirmed, ${pending} left; nothing is paid twice on resume.`,
      {
        signal: interrupted,
        resume,
        details: { journal, confirmed: report.confirmed, pending },
      },
    );
  }
  if (!out.json) out.print(renderReport(report, written));
}

/** `--status`: each row against the chain, from the journal as it is (nothing is spent or written). */
async function showStatus(
  ctx: Context,
  payoutsModule: typeof import('../../workflows/payouts/index.js'),
  token: string,
  payouts: readonly import('../../workflows/payouts/index.js').Payout[],
  where: readonly string[],
  from: string,
  journal: string,
  node: import('../../tron/node.js').TronNode,
): Promise<void> {
  if (!existsSync(journal)) throw new UsageError(`--status: no journal at ${journal}`, 'pass --journal FILE');
  const rows = payoutsModule.checkPayouts(payouts, { token, from }, where);
  const { systemClock } = await import('../../utils/clock.js');
  const status = await payoutsModule.batchStatus({ node, clock: systemClock }, from, rows, journal);
  const out = ctx.out;
  if (out.json) return out.line(status);
  const lines = [`Batch ${status.batch_key} (${journal}):`];
  for (const r of status.rows)
    lines.push(
      `  ${r.id.padEnd(12)} ${r.to} ${r.amount.padStart(12)}  journal ${r.journal.padEnd(9)} chain ${(r.chain ?? '-').padEnd(9)} ${r.tx_id ?? ''}${r.block ? ` block ${r.block}` : ''}`,
    );
  const count = (k: string) => status.rows.filter((r) => r.journal === k).length;
  lines.push(`${count('confirmed')} confirmed, ${count('failed')} failed, ${count('pending')} pending, ${count('unsent')} unsent`);
  out.print(`${lines.join('\n')}\n`);
}
