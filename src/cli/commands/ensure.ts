import { randomUUID } from 'node:crypto';
import { type Command, Option } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, InterruptedError, UsageError, exitCodeFor } from '../errors.js';
import { formatDuration, groupDigits, sunAndTrx } from '../format.js';
import { LIMITS } from '../facts.js';
import { parseAddress, parseDuration, parseIdempotencyKey, parseTrx, parseUnits } from '../parse.js';
import { ENV } from '../settings.js';
import { signingKey } from '../signing-key.js';
import type { CommandModule } from '../types.js';

interface EnsureOptions {
  energy?: string;
  bandwidth?: string;
  duration: string;
  maxCost?: string;
  idempotencyKey?: string;
  node?: string;
  tronNode?: string;
  timeout: string;
  activate?: boolean;
  keyFile?: string;
}

const command: CommandModule = {
  description:
    'Make sure a TRON address can spend N energy (and bandwidth): reads what it has on a TRON node, ' +
    `buys only the deficit (rounded up to the ${groupDigits(String(LIMITS.MIN_ENERGY_AMOUNT))} minimum), asks to confirm ` +
    'the cost (unless --yes), waits until the order is FILLED and the delegation shows on the node. ' +
    'Finding enough already, it buys nothing. An address TRON cannot delegate to is refused before anything is ordered: ' +
    'a contract, or one never activated (it has never received TRX); --activate sends it TRX from a funding wallet first ' +
    `(--key-file or ${ENV.privateKey}; the wallet pays java-tron's account-creation fee, 1.1 TRX at most on mainnet).`,
  register(cmd: Command) {
    cmd
      .usage('ADDRESS --energy N [--bandwidth N] [--duration 1h] [--max-cost TRX] [--activate --key-file FILE] [--yes] [--json]')
      .argument('<address>', 'TRON address that must be able to spend the resources')
      .option('-e, --energy <units>', 'energy it must be able to spend, e.g. 65000 or 130k')
      .option('-b, --bandwidth <units>', 'bandwidth it must be able to spend')
      .option('-d, --duration <duration>', 'rental duration: 30m, 1h, 1d or seconds', '1h')
      .option('--max-cost <trx>', 'refuse (nothing ordered) when renting costs more than this many TRX')
      .option(
        '--idempotency-key <key>',
        'reuse a key to make a retried command safe: the same key finds the same order, never buying twice (default: a new UUID, printed)',
      )
      .option(
        '--tron-node <url>',
        `TRON full node to read (env ${ENV.tronNode}, profile tron_node; default: the mock's own when the base URL is a reference mock, else TronGrid with ${ENV.tronNodeApiKey})`,
      )
      .addOption(new Option('--node <url>', 'old name of --tron-node').hideHelp())
      .option('--timeout <duration>', 'the whole command (reads, order, fill, delegation) ends within this long', '2m')
      .option('--activate', 'activate ADDRESS first when it has never received TRX: send it 1 SUN from the funding wallet, which pays the account-creation fee')
      .option(
        '--key-file <path>',
        `with --activate: file holding the funding wallet's hex private key (- for stdin; or env ${ENV.privateKey}; else asked, hidden)`,
      )
      .action(action<[string], EnsureOptions>(runEnsure));
  },
};

/** The exact command that finishes this ensure without buying twice: the same one, with its key. */
function finishCommand(ctx: Context, address: string, opts: EnsureOptions, key: string): string {
  const parts = ['ensure', address];
  if (opts.energy) parts.push('--energy', opts.energy);
  if (opts.bandwidth) parts.push('--bandwidth', opts.bandwidth);
  if (opts.duration !== '1h') parts.push('--duration', opts.duration);
  if (opts.maxCost) parts.push('--max-cost', opts.maxCost);
  if (opts.node) parts.push('--node', opts.node);
  if (opts.timeout !== '2m') parts.push('--timeout', opts.timeout);
  if (opts.activate) parts.push('--activate');
  if (opts.keyFile) parts.push('--key-file', opts.keyFile);
  parts.push('--idempotency-key', key);
  if (ctx.opts.yes) parts.push('--yes');
  if (ctx.opts.json) parts.push('--json');
  const line = parts.map((p) => (/^[\w@%+=:,./~-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)).join(' ');
  return ctx.resumeCommand(line) ?? `trx-rent ${line}`;
}

/**
 * A stopped ensure: the stage reached, the order id, and the command that finishes it. An order
 * that ended FAILED is final (the same key finds the same failed order): no command can finish
 * it, so the error goes as it is, with its reason and what to do about it.
 */
function stopped(error: unknown, finish: string, signal: string | undefined): unknown {
  const d = ((error as { details?: Record<string, unknown> } | null)?.details ?? {}) as Record<string, unknown>;
  if (!signal && (error as { code?: unknown } | null)?.code === 'ORDER_FAILED') return error;
  if (!signal && d.stage !== 'order' && d.stage !== 'delegation' && d.stage !== 'activation') return error;
  const order = typeof d.order_id === 'string' ? d.order_id : undefined;
  const where =
    d.stage === 'activation'
      ? `while activating the address (stage activation)${typeof d.tx_id === 'string' ? `: its TRX transfer ${d.tx_id} may still land` : ''}`
      : d.stage === 'order'
        ? 'during the order request (stage order): an order may have been placed'
        : d.stage === 'delegation'
          ? `while waiting for ${order ? `order ${order}` : 'the order'} and its delegation (stage delegation)${order ? `: order ${order} was placed and goes on` : ''}`
          : 'before anything was ordered';
  const details = { ...d, finish_command: finish };
  if (signal)
    return Object.assign(new InterruptedError(`Interrupted (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}) ${where}.`, { signal, details }), {
      hint: `finish with: ${finish}`,
    });
  const out = new CliError(String((error as { code?: unknown }).code ?? 'UNEXPECTED'), `${(error as Error).message} [stopped ${where}]`, {
    exitCode: exitCodeFor(error),
    hint: `finish with: ${finish}`,
    cause: error,
  });
  out.details = details;
  return out;
}

async function runEnsure(ctx: Context, { args: [addressArg], opts }: { args: [string]; opts: EnsureOptions }) {
  const address = await parseAddress(addressArg, 'ADDRESS');
  const energy = opts.energy ? parseUnits(opts.energy, '--energy') : 0;
  const bandwidth = opts.bandwidth ? parseUnits(opts.bandwidth, '--bandwidth') : undefined;
  if (!energy && !bandwidth) {
    throw new UsageError('missing --energy (or --bandwidth)', 'e.g. --energy 65000', 'MISSING_ARGUMENT');
  }
  const duration = parseDuration(opts.duration);
  const maxCostSun = opts.maxCost ? parseTrx(opts.maxCost, '--max-cost') : undefined;
  const idempotencyKey = parseIdempotencyKey(opts.idempotencyKey) ?? randomUUID();
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  if (opts.keyFile && !opts.activate) throw new UsageError('--key-file is the funding wallet of --activate', 'add --activate, or leave --key-file out');
  const activate = opts.activate ? { signer: { privateKey: await signingKey(ctx, opts.keyFile, "Funding wallet's private key") } } : undefined;
  const { chain } = await ctx.chain.handles(opts.tronNode ?? opts.node);
  const out = ctx.out;
  const s = out.s;
  const spinner = { current: undefined as ReturnType<typeof out.spinner> | undefined };
  const finish = finishCommand(ctx, addressArg, opts, idempotencyKey);
  // Ctrl+C (or SIGTERM) stops the wait; the error then says how far it got and how to finish.
  const interrupt = ctx.interruptible();
  let result: Awaited<ReturnType<typeof chain.ensure>>;
  try {
    result = await chain.ensure({
      signal: interrupt.signal,
      address,
      energy,
      bandwidth,
      duration,
      maxCostSun,
      idempotencyKey,
      timeoutMs,
      activate,
      confirm: async (plan) => {
        ctx.spending = { sun: plan.cost_sun, currency: 'TRX' };
        const what = plan.rentals.map((r) => `${groupDigits(String(r.amount))} ${r.resource.toLowerCase()}`).join(' and ');
        const a = plan.activation;
        out.print(
          a
            ? `${s.bold(address)} is not activated: ${a.from} will send it ${sunAndTrx(a.amount_sun)} and pay up to ${sunAndTrx(a.fee_sun)} in account-creation fees (from that wallet, not the account balance).`
            : `${s.bold(address)} can spend ${groupDigits(String(plan.before.energy))} energy and ${groupDigits(String(plan.before.bandwidth))} bandwidth now.`,
        );
        const rent = what ? `rent ${what} for ${formatDuration(duration)} to ${address} for about ${sunAndTrx(plan.cost_sun)}` : '';
        const question = a
          ? `Activate ${address}${rent ? ` and ${rent}` : ''}?`
          : `Rent ${what} for ${formatDuration(duration)} to ${address} for about ${sunAndTrx(plan.cost_sun)}?`;
        await ctx.ask.confirm(question, a ? 'activate it and place the order' : 'place the order');
        // Said once something is about to be ordered: a refusal before that needs no finishing.
        if (!opts.idempotencyKey) out.diag(`idempotency key ${idempotencyKey}: if this run stops, finish it with: ${finish}`);
        spinner.current = out.spinner(a ? 'Activating…' : 'Ordering…');
        return true;
      },
      onProgress: (e) => {
        if (e.step === 'activated') spinner.current?.update(e.activation ? `Activated (tx ${e.activation.tx_id}); ordering…` : 'Already activated; ordering…');
        if (e.step === 'ordered') spinner.current?.update(`Order ${e.order.id} placed (${String(e.order.status)}); waiting for the fill…`);
        if (e.step === 'filled') spinner.current?.update(`Order ${e.order.id} FILLED; waiting for the delegation on the node…`);
      },
    });
  } catch (error) {
    throw stopped(error, finish, interrupt.interrupted());
  } finally {
    spinner.current?.stop();
    interrupt.done();
  }
  out.result(result, () => {
    const activated = result.activation
      ? `${s.green('✓')} Activated ${address}: ${result.activation.from} sent ${sunAndTrx(result.activation.amount_sun)}, fee ${sunAndTrx(result.activation.fee_sun)} (tx ${result.activation.tx_id}).\n`
      : '';
    if (!result.order && !result.bandwidth_order) {
      if (activated) return activated;
      return `${s.green('✓')} ${address} already has ${groupDigits(String(result.before.energy))} energy and ${groupDigits(String(result.before.bandwidth))} bandwidth: nothing bought.\n`;
    }
    const orders = [result.order, result.bandwidth_order].filter((o) => o !== null).map((o) => o.id);
    return (
      activated +
      `${s.green('✓')} Bought ${groupDigits(String(result.bought.energy))} energy${result.bought.bandwidth ? ` and ${groupDigits(String(result.bought.bandwidth))} bandwidth` : ''} ` +
      `for ${sunAndTrx(result.cost_sun)} (order ${orders.join(', ')}).\n` +
      `  ${address} can now spend ${groupDigits(String(result.after.energy))} energy and ${groupDigits(String(result.after.bandwidth))} bandwidth (was ${groupDigits(String(result.before.energy))} and ${groupDigits(String(result.before.bandwidth))}).\n`
    );
  });
}

export default command;
