/**
 * `trx-rent sweep --to TREASURY (--from FILE | --hd RANGE --mnemonic-file FILE)`: collect USDT (or
 * another TRC-20) from many deposit addresses into a treasury with the energy rented per source
 * (the sweep workflow, `src/workflows/sweep/`). Reads every source on the node, shows the plan
 * (sources to sweep, below the minimum, to activate; one order per source; the cost against
 * burning) and asks (unless --yes); `--plan` stops there. The run is journaled: the same command
 * after a crash resumes and sweeps or activates nothing twice. `--watch` then follows the deposits
 * (`client.chain.watchTransfers`) and sweeps each address again once its balance passes `--min`.
 * Keys come from a file (one hex key a line) or an HD mnemonic file, never from the command line,
 * and appear in no output; sources signed by a KMS key or a function are the SDK's
 * (`client.transfers.sweep` takes any `Signer` per source).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { SweepEvent, SweepPlan, SweepReport, SweepSource } from '../../workflows/sweep/index.js';
import { type Context, action } from '../context.js';
import { CliError, InterruptedError, UsageError } from '../errors.js';
import { formatDuration, sunAndTrx } from '../format.js';
import { parseAddress, parseDuration, parseInteger, parseTrx } from '../parse.js';
import { readSecretFile } from '../settings.js';
import { signingKey } from '../signing-key.js';
import type { CommandModule } from '../types.js';

interface SweepCliOptions {
  to?: string;
  from?: string;
  hd?: string;
  mnemonicFile?: string;
  account: string;
  min: string;
  token: string;
  fundingKeyFile?: string;
  journal?: string;
  plan?: boolean;
  duration: string;
  maxCost?: string;
  concurrency: string;
  tronNode?: string;
  watch?: boolean;
  confirmations?: string;
  watchFor?: string;
}

const command: CommandModule = {
  description:
    'Sweep a TRC-20 token (USDT by default) from many deposit addresses into a treasury, with the energy rented for each ' +
    'source (one order per source: an order has one target) instead of TRX sent to each to burn. Sources that were never ' +
    'activated (a TRC-20 receipt creates no account) are activated once from --funding-key-file. Journaled: the same ' +
    'command resumes after a crash and never sweeps, activates or orders twice.',
  register(cmd: Command) {
    cmd
      .usage('--to TREASURY (--from FILE | --hd RANGE --mnemonic-file FILE) [--min 10] [--plan] [--yes] [--json]')
      .option('--to <address>', 'the treasury that receives every swept balance')
      .option(
        '--from <file>',
        "the deposit addresses' private keys, one hex key a line (chmod 600; a KMS or other Signer per source: the SDK's transfers.sweep)",
      )
      .option('--hd <range>', "HD deposit addresses m/44'/195'/account'/0/index for indexes FROM-TO (e.g. 0-499)")
      .option('--mnemonic-file <path>', 'the BIP-39 words for --hd (a file, or - for stdin); never an argument')
      .option('--account <n>', "the account of m/44'/195'/account'/0/index", '0')
      .option('--min <amount>', 'sweep sources holding at least this much of the token', '1')
      .option('--token <token>', 'usdt, usdc, usdd, or a TRC-20 contract address', 'usdt')
      .option('--funding-key-file <path>', 'the wallet that activates never-activated sources (its hex private key; - for stdin)')
      .option('--journal <file>', 'the sweep journal (default: beside --from, or sweep-hd-ACCOUNT-RANGE.journal); the same command resumes from it')
      .option('--plan', 'read the sources and show the plan and its cost; spend nothing')
      .option('-d, --duration <duration>', 'rental duration of each order', '1h')
      .option('--max-cost <trx>', 'the most the run may spend (rental and activation), TRX; default the confirmed plan plus 10 %')
      .option('--concurrency <n>', 'sources in flight at once', '8')
      .option('--tron-node <url>', "TRON full node to read (default: the mock's own for a reference mock, else TronGrid)")
      .option('--watch', 'after the sweep, follow deposits to these addresses and sweep each again once it holds --min')
      .option('--confirmations <n>', "with --watch: sweep a deposit at this depth, not only once solidified ('solidified' by default)")
      .option('--watch-for <duration>', 'with --watch: stop after this long (default: until Ctrl+C)')
      .addHelpText(
        'after',
        '\nExamples:\n  trx-rent sweep --to TTreasury… --hd 0-499 --mnemonic-file words.txt --min 10 --funding-key-file fund.key --plan\n' +
          '  trx-rent sweep --to TTreasury… --from deposit-keys.txt --min 10 --funding-key-file fund.key --yes --json\n' +
          '\nIf a run stops (Ctrl+C, a crash), run the same command: the journal says what was done.',
      )
      .action(action<[], SweepCliOptions>(runSweep));
  },
};
export default command;

/** `A-B` (inclusive) or `A` as a first index and a count. */
function parseRange(text: string): { from: number; count: number } {
  const m = /^(\d+)(?:\s*(?:-|\.\.)\s*(\d+))?$/.exec(text.trim());
  if (!m) throw new UsageError(`--hd ${text}: give a range of indexes, FROM-TO (e.g. 0-499)`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (to < from || to - from + 1 > 100_000 || to > 2 ** 31 - 1) throw new UsageError(`--hd ${text}: FROM-TO with FROM <= TO, at most 100000 indexes`);
  return { from, count: to - from + 1 };
}

/** The sources: keys from --from, or derived from --hd and --mnemonic-file. */
async function sourcesOf(ctx: Context, opts: SweepCliOptions): Promise<{ sources: SweepSource[]; journal: string }> {
  if (Boolean(opts.from) === Boolean(opts.hd))
    throw new UsageError(
      opts.from ? 'give --from or --hd, not both' : 'no sources',
      'pass --from KEYS_FILE, or --hd FROM-TO with --mnemonic-file FILE',
      'MISSING_ARGUMENT',
    );
  if (opts.from) {
    const text = readSecretFile(opts.from, '--from', (m) => ctx.out.warn(m)).value;
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const bad = lines.findIndex((l) => !/^(0x)?[0-9a-fA-F]{64}$/.test(l));
    if (bad !== -1) throw new UsageError(`--from ${opts.from}: line ${bad + 1} is not a 64-hex private key`);
    return { sources: lines.map((privateKey) => ({ privateKey })), journal: opts.journal ?? `${opts.from}.sweep.journal` };
  }
  if (!opts.mnemonicFile)
    throw new UsageError('--hd needs --mnemonic-file FILE (the words are never taken from the command line)', undefined, 'MISSING_ARGUMENT');
  const range = parseRange(opts.hd!);
  const account = parseInteger(opts.account, '--account', { max: 2 ** 31 - 1 });
  const mnemonic =
    opts.mnemonicFile === '-' ? (await ctx.readStdin()).trim() : readSecretFile(opts.mnemonicFile, '--mnemonic-file', (m) => ctx.out.warn(m)).value;
  const { deriveKeys } = await import('../../protocol/hd-keys.js');
  const keys = await deriveKeys({ mnemonic, account, from: range.from, count: range.count });
  return {
    sources: keys.map((k) => ({ privateKey: k.privateKey, address: k.address })),
    journal: opts.journal ?? `sweep-hd-${account}-${range.from}-${range.from + range.count - 1}.journal`,
  };
}

function renderPlan(p: SweepPlan): string {
  const token = p.token.symbol ?? p.token.address;
  const lines = [
    `Sweep ${p.key}: ${p.to_sweep} of ${p.sources} sources hold at least ${p.min || 'the minimum'} ${token} (${p.below_min} below, left alone): ${p.total} ${token} to ${p.to}`,
    `  activate    ${p.to_activate} source${p.to_activate === 1 ? '' : 's'} never activated: ${sunAndTrx(p.activation_cost_sun)} at most (java-tron's account-creation fee)`,
    `  renting     ${p.orders} energy order${p.orders === 1 ? '' : 's'} for ${formatDuration(p.duration_sec)}: ${sunAndTrx(p.rent_cost_sun)}`,
    `              (${p.order_note})`,
    `  total       ${sunAndTrx(p.total_cost_sun)}`,
  ];
  if (p.burn_cost_sun)
    lines.push(
      `  burning     ${sunAndTrx(p.burn_cost_sun)} instead (TRX sent to each source to burn, activation included)`,
      `  saving      ${sunAndTrx(p.saving_sun)}`,
    );
  if (p.resume)
    lines.push(
      `  resuming    ${p.resume.swept} swept, ${p.resume.failed} failed; spent ${sunAndTrx(p.resume.spent_sun)}${p.resume.budget_sun !== undefined ? ` of ${sunAndTrx(p.resume.budget_sun)} approved` : ''}`,
    );
  return `${lines.join('\n')}\n`;
}

function renderReport(r: SweepReport): string {
  const lines = [
    `${r.complete ? '✓' : '…'} ${r.swept} swept, ${r.failed} failed, ${r.pending} pending: ${r.total_swept} to ${r.to} (sweep ${r.key})`,
    `  orders      ${r.orders} filled: ${sunAndTrx(r.rent_cost_sun)}; activation ${sunAndTrx(r.activation_cost_sun)}; burnt ${sunAndTrx(r.burned_sun)}`,
    `  cost        ${sunAndTrx(r.total_cost_sun)}`,
    `  journal     ${r.journal ?? '(memory)'}`,
  ];
  for (const f of r.rows.filter((x) => x.status === 'failed').slice(0, 10)) lines.push(`  failed      ${f.address}: ${f.reason ?? ''}`);
  return `${lines.join('\n')}\n`;
}

async function runSweep(ctx: Context, { opts }: { opts: SweepCliOptions }): Promise<void> {
  if (!opts.to) throw new UsageError('--to TREASURY is required', undefined, 'MISSING_ARGUMENT');
  const to = await parseAddress(opts.to, '--to');
  const concurrency = parseInteger(opts.concurrency, '--concurrency', { min: 1, max: 64 });
  const duration = parseDuration(opts.duration);
  const maxCostSun = opts.maxCost ? parseTrx(opts.maxCost, '--max-cost') : undefined;
  const confirmations =
    opts.confirmations === undefined || opts.confirmations === 'solidified'
      ? undefined
      : parseInteger(opts.confirmations, '--confirmations', { min: 1, max: 1_000 });
  const { sources, journal } = await sourcesOf(ctx, opts);
  const funding = opts.fundingKeyFile ? { privateKey: await signingKey(ctx, opts.fundingKeyFile, "Funding wallet's private key") } : undefined;
  const { chain } = await ctx.chain.handles(opts.tronNode);
  const client = await ctx.clients.client();
  const [orders, transactions] = await Promise.all([client.get('orders'), client.get('transactions')]);
  const deps = { orders, transactions, chain, node: await chain.node(), clock: client.http.clock };
  const sweepModule = await import('../../workflows/sweep/index.js');
  const out = ctx.out;
  const base = { to, min: opts.min, token: opts.token, funding, duration, concurrency, maxCostSun };

  if (opts.plan) {
    const run = new sweepModule.SweepRun(deps, sources, { ...base, journal: existsSync(journal) ? journal : undefined });
    const plan = await run.plan();
    if (out.json) return out.line({ event: 'planned', plan });
    out.print(renderPlan(plan));
    return;
  }

  let spinner: ReturnType<typeof out.spinner> | undefined;
  const onEvent = (e: SweepEvent) => {
    if (out.json) return out.line(e);
    if (e.event === 'progress') spinner?.update(`${e.swept + e.failed}/${e.total} swept${e.failed ? ` (${e.failed} failed)` : ''}`);
    else if (e.event === 'reading') spinner?.update(`Reading sources ${e.done}/${e.total}…`);
  };
  const resume = `the same command (its journal is ${journal})`;
  const runOnce = async (list: readonly SweepSource[], journalPath: string, confirm: boolean): Promise<SweepReport> => {
    const run = new sweepModule.SweepRun(deps, list, {
      ...base,
      journal: journalPath,
      onEvent,
      confirm: confirm
        ? async (plan) => {
            spinner?.stop();
            spinner = undefined;
            ctx.spending = { sun: plan.total_cost_sun, currency: 'TRX' };
            if (!out.json) out.print(renderPlan(plan));
            await ctx.ask.confirm(
              `Sweep ${plan.to_sweep} sources for about ${sunAndTrx(plan.total_cost_sun)}${plan.burn_cost_sun ? ` (burning: ${sunAndTrx(plan.burn_cost_sun)})` : ''}?`,
              'sweep',
            );
            if (!out.json) spinner = out.spinner('Sweeping…');
            return true;
          }
        : undefined,
    });
    const watching = new AbortController();
    let interrupted: string | undefined;
    void ctx.untilSignal(watching.signal).then(
      (signal) => {
        interrupted = signal;
        run.stop();
      },
      () => undefined,
    );
    try {
      if (!out.json && !spinner) spinner = out.spinner('Reading sources…');
      const report = await run.start();
      spinner?.stop();
      spinner = undefined;
      if (interrupted)
        throw new InterruptedError(`Interrupted: ${report.swept} swept, ${report.pending} left; nothing is swept twice on resume.`, {
          signal: interrupted,
          resume,
          details: { journal: journalPath },
        });
      return report;
    } catch (error) {
      spinner?.stop();
      spinner = undefined;
      const code = (error as { code?: string }).code;
      if (interrupted && !(error instanceof InterruptedError))
        throw new InterruptedError(`Interrupted: the sweep stopped; its journal is ${journalPath}.`, {
          signal: interrupted,
          resume,
          details: { journal: journalPath },
        });
      if (code === 'JOURNAL_LOCKED') throw new CliError('JOURNAL_LOCKED', (error as Error).message, { hint: 'one runner per journal' });
      if (code === 'TARGET_NOT_ACTIVATED')
        throw new CliError('TARGET_NOT_ACTIVATED', (error as Error).message, {
          hint: 'pass --funding-key-file FILE: a wallet with TRX that activates them (java-tron charges it the account-creation fee)',
        });
      throw error;
    } finally {
      watching.abort();
    }
  };

  // With --watch, deposits are followed from the block before the first sweep's reads (the cursor
  // written before it starts): none that lands during it, or before a restart, is missed.
  let watch: import('../../tron/watch.js').TransferWatch | undefined;
  if (opts.watch) {
    const { privateKeyToTronAddress } = await import('../../protocol/tron-transaction.js');
    const addresses = sources.map((s) => s.address ?? privateKeyToTronAddress((s as { privateKey: string }).privateKey));
    const fromBlock = (await deps.node.getNowBlock()).number;
    watch = await chain.watchTransfers({ addresses, token: opts.token, confirmations, journal: `${journal}.watch`, fromBlock });
    await watch.reported();
  }
  const report = await runOnce(sources, journal, true);
  if (out.json) out.line({ event: 'report', report });
  else out.print(renderReport(report));
  if (!report.complete && !opts.watch)
    throw new CliError('SWEEP_INCOMPLETE', `${report.pending} sources are not final yet; nothing is swept twice on resume.`, { hint: `resume with ${resume}` });
  if (opts.watch)
    await watchAndSweep(ctx, {
      sources,
      journal,
      confirmations,
      watchFor: opts.watchFor ? parseDuration(opts.watchFor) : undefined,
      token: opts.token,
      runOnce,
      chain,
      clock: client.http.clock,
      watch: watch!,
    });
}

/**
 * `--watch`: follow the deposits to the sources (the cursor in `<journal>.watch`) and, for each
 * block with deposits, sweep the addresses that received one if they hold `--min` (a round: a
 * sweep of those addresses with its own journal, `<journal>.<block>`). A restart first finishes
 * every round the watch journal reported whose own journal has not finished, then goes on.
 */
async function watchAndSweep(
  ctx: Context,
  w: {
    sources: readonly SweepSource[];
    journal: string;
    confirmations: number | undefined;
    watchFor: number | undefined;
    token: string;
    runOnce: (list: readonly SweepSource[], journal: string, confirm: boolean) => Promise<SweepReport>;
    chain: import('../../tron/facade.js').Chain;
    clock: import('../../utils/clock.js').Clock;
    watch: import('../../tron/watch.js').TransferWatch;
  },
): Promise<void> {
  const out = ctx.out;
  const stop = new AbortController();
  void ctx.untilSignal(stop.signal).then(
    () => stop.abort(),
    () => undefined,
  );
  const timer = w.watchFor ? setTimeout(() => stop.abort(), w.watchFor * 1000) : undefined;
  const { privateKeyToTronAddress } = await import('../../protocol/tron-transaction.js');
  const byAddress = new Map(w.sources.map((s) => [s.address ?? privateKeyToTronAddress((s as { privateKey: string }).privateKey), s]));
  const watch = w.watch;
  const finished = (path: string) => existsSync(path) && /"state":"finished"[^\n]*\n?$/.test(readFileSync(path, 'utf8'));
  const rounds = async (deposits: readonly import('../../tron/watch.js').Deposit[]) => {
    const byBlock = new Map<number, Set<string>>();
    for (const d of deposits) (byBlock.get(d.block) ?? byBlock.set(d.block, new Set()).get(d.block)!).add(d.to);
    for (const [block, addresses] of byBlock) {
      const path = `${w.journal}.${block}`;
      if (finished(path)) continue;
      const report = await w.runOnce(
        [...addresses].map((a) => byAddress.get(a)!),
        path,
        false,
      );
      if (out.json) out.line({ event: 'report', block, report });
      else out.print(renderReport(report));
    }
  };
  if (!out.json) out.print(`Watching ${byAddress.size} addresses for deposits (Ctrl+C stops)…\n`);
  try {
    // Rounds a crash left unfinished: swept before anything new.
    await rounds(await watch.reported());
    for (let turn = 0; turn < Number.MAX_SAFE_INTEGER && !stop.signal.aborted; turn++) {
      let events: Awaited<ReturnType<typeof watch.poll>>;
      try {
        events = await watch.poll();
      } catch (error) {
        if (stop.signal.aborted) break;
        throw error;
      }
      for (const e of events) {
        if (out.json) out.line({ event: `deposit_${e.type}`, deposit: e.deposit });
        else if (e.type === 'deposit')
          out.print(
            `Deposit ${e.deposit.amount} to ${e.deposit.to} (tx ${e.deposit.tx_id}, block ${e.deposit.block}${e.deposit.confirmed ? '' : ', unconfirmed'})\n`,
          );
      }
      await rounds(events.filter((e) => e.type === 'deposit').map((e) => e.deposit));
      if (!events.length) await w.clock.sleep(3_000, stop.signal).catch(() => undefined);
    }
  } finally {
    if (timer) clearTimeout(timer);
    await watch.close();
  }
}
