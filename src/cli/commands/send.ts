import { randomUUID } from 'node:crypto';
import { type Command, Option } from 'commander';
import type { ProgressEvent, SentTransfer, TransferEstimate } from '../../tron/engine.js';
import { type Context, action } from '../context.js';
import { CliError, InterruptedError, UsageError, exitCodeFor } from '../errors.js';
import { formatDuration, groupDigits, sunAndTrx } from '../format.js';
import { parseAddress, parseDuration, parseIdempotencyKey, parseTrx } from '../parse.js';
import { storeSetting } from '../store-setting.js';
import { ENV } from '../settings.js';
import { type SignerFlags, registerSignerOptions, signerArgs, transferSignerChoice } from '../transfer-signers.js';
import type { CommandModule } from '../types.js';
import { type BatchOptions, registerBatchOptions } from './send-batch.js';

interface SendOptions extends BatchOptions, SignerFlags {
  to?: string;
  store?: string;
  amount?: string;
  duration: string;
  maxCost?: string;
  burn?: boolean;
  idempotencyKey?: string;
  node?: string;
  tronNode?: string;
  solidified?: boolean;
  timeout: string;
}

const command: CommandModule = {
  description:
    'Send a TRC-20 token (USDT, USDC, USDD or a contract address) without burning TRX for its energy: ' +
    'estimates the energy and bandwidth on a TRON node, shows what renting costs against burning and asks ' +
    'to confirm (unless --yes), rents the deficit and waits for the delegation, signs the transfer locally, ' +
    'broadcasts it through the service (its broadcast endpoint, `client.transactions.broadcast`) and waits for the receipt. The key comes ' +
    `from --key-file, ${ENV.privateKey} or a hidden prompt, never from the command line. From a multi-signature account, ` +
    'name it with --from and give a --key-file per signer and the --permission-id they sign under: each signs the one transaction.',
  register(cmd: Command) {
    registerSignerOptions(registerBatchOptions(cmd))
      .usage('<token> --to ADDRESS --amount N [--key-file FILE] [--duration 1h] [--max-cost TRX] [--yes] [--json]')
      .argument('<token>', 'usdt, usdc, usdd, or a TRC-20 contract address')
      .option('-t, --to <address>', 'recipient')
      .option('-a, --amount <amount>', 'amount in token units, e.g. 10 or 0.5')
      .option('-d, --duration <duration>', 'rental duration of the energy', '1h')
      .option('--max-cost <trx>', 'refuse (nothing ordered or sent) when renting costs more than this many TRX')
      .option('--burn', 'rent nothing: burn TRX for the energy (still shows the comparison)')
      .option(
        '--idempotency-key <key>',
        "the transfer's identity (default: a new UUID, printed): the signed transaction is kept with it under the config directory, and a re-run with the same key re-broadcasts that transaction and reuses its order (<key>:energy), never paying twice",
      )
      .option(
        '--tron-node <url>',
        `TRON full node to read (env ${ENV.tronNode}, profile tron_node; default: the mock's own when the base URL is a reference mock, else TronGrid with ${ENV.tronNodeApiKey})`,
      )
      .addOption(new Option('--node <url>', 'old name of --tron-node').hideHelp())
      .option('--solidified', 'wait until the transfer is in a solidified (irreversible) block, about a minute on mainnet, not just in a block')
      .option(
        '--store <url>',
        `keep the signed transfer in a PostgreSQL store shared by processes on several hosts: postgres://user:password@host/db (env ${ENV.store}; default: the config directory)`,
      )
      .option('--timeout <duration>', 'the whole command (rental, broadcast, receipt) ends within this long', '2m')
      .addHelpText(
        'after',
        '\nExamples:\n  trx-rent send usdt --to TXYZ… --amount 10 --key-file ~/.tron/key\n' +
          '  TRX_RENT_PRIVATE_KEY=… trx-rent send usdt --to TXYZ… --amount 10 --idempotency-key pay-42 --yes --json\n' +
          '  trx-rent send usdt --to TXYZ… --amount 10 --from TMultiSig… --permission-id 2 --key-file a.key --key-file b.key\n' +
          '  trx-rent tx TXID    what became of a transfer (confirmed, failed, pending, expired)\n' +
          '\nIf a run stops (Ctrl+C, an error, a crash), run the command it prints: the same one with the same\n' +
          '--idempotency-key. It finds the transaction signed before and lands it, and reuses the order: the\n' +
          'recipient is paid once, the energy bought once.',
      )
      .action(action<[string], SendOptions>(runSend));
  },
};

/** Who signs: --key-file (or - for stdin) > TRX_RENT_PRIVATE_KEY > a hidden prompt at a terminal, or a multi-signature account's keys (--from, --key-file per signer, --permission-id). Never echoed. */
function senderKeys(ctx: import('../context.js').Context, flags: SignerFlags) {
  return transferSignerChoice(ctx, flags, "Sender's private key");
}

function tokenName(e: { token: { symbol: string | undefined; address: string } }): string {
  return e.token.symbol ?? e.token.address;
}

function progressText(e: ProgressEvent, solidifiedWait = false): string | undefined {
  switch (e.step) {
    case 'ordered':
      return `Order ${e.order.id} placed (${String(e.order.status)}); waiting for the fill…`;
    case 'filled':
      return `Order ${e.order.id} FILLED; waiting for the delegation on the node…`;
    case 'delegated':
      return `${groupDigits(String(e.after.energy))} energy on the node; signing…`;
    case 'signed':
      return `Signed ${e.tx_id}; broadcasting…`;
    case 'resumed':
      return `Transfer ${e.tx_id} was signed by an earlier run with this idempotency key: re-broadcasting the same transaction and waiting for it (never a new one)…`;
    case 'broadcast':
      return `Broadcast ${e.tx_id}; waiting for the receipt${solidifiedWait ? ' in a solidified block' : ''}…`;
    default:
      return undefined;
  }
}

/** The estimate as the confirmation shows it: needs, has, burning against renting, the saving. */
export function renderEstimate(e: TransferEstimate, burn: boolean, s: import('../styles.js').Styles): string {
  const lines = [
    `${s.bold('Transfer')} ${e.amount} ${tokenName(e)} from ${e.from} to ${e.to}${e.recipient_holds_token ? '' : ' (recipient holds none yet: about twice the energy)'}`,
    `  energy     needs ${groupDigits(String(e.energy.needed))}, has ${groupDigits(String(e.energy.available))}, short ${groupDigits(String(e.energy.deficit))}`,
    `  bandwidth  needs ${groupDigits(String(e.bandwidth.needed))}, has ${groupDigits(String(e.bandwidth.available))}${e.bandwidth.deficit ? `: burns ${sunAndTrx(e.burn.bandwidth_sun)}` : ''}`,
    `  burning    ${sunAndTrx(e.burn.total_sun)} at ${groupDigits(String(e.fees.energy_sun))} SUN per energy, ${groupDigits(String(e.fees.bandwidth_sun))} SUN per byte (the chain's fees now)`,
  ];
  if (e.rent) {
    lines.push(
      `  renting    ${groupDigits(String(e.rent.amount))} energy for ${formatDuration(e.rent.duration_sec)} from ${e.rent.provider} at ${e.rent.price_sun} SUN per unit: ${sunAndTrx(e.rent.cost_sun)}${burn ? ' (not used: --burn)' : ''}`,
    );
    if (!burn)
      lines.push(
        `  ${e.saving_sun >= 0 ? s.green('saving') : s.yellow('extra ')}     ${sunAndTrx(Math.abs(e.saving_sun))}${e.saving_sun >= 0 ? '' : ' (renting costs more than burning here)'}`,
      );
  } else {
    lines.push('  renting    nothing: the sender has the energy');
  }
  return `${lines.join('\n')}\n`;
}

/** A sent transfer: the receipt, the rental, the cost against burning. */
export function renderSent(r: SentTransfer, s: import('../styles.js').Styles): string {
  const rent = r.ensure?.order
    ? `rented ${groupDigits(String(r.ensure.bought.energy))} energy (order ${r.ensure.order.id}) for ${sunAndTrx(r.rent_cost_sun)}`
    : 'rented nothing';
  return (
    `${s.green('✓')} Sent ${r.amount} ${tokenName(r)} to ${r.to} in block ${r.receipt.block} (${r.confirmed === 'solidified' ? 'solidified: irreversible' : 'included; not waited for solidification'})\n` +
    `  tx         ${r.tx_id}\n` +
    `  energy     ${groupDigits(String(r.receipt.energy_used))} used, ${sunAndTrx(r.receipt.energy_burned_sun)} burnt; ${rent}\n` +
    `  bandwidth  ${groupDigits(String(r.estimate?.bandwidth.needed ?? r.receipt.bandwidth_used))} bytes, ${sunAndTrx(r.receipt.bandwidth_burned_sun)} burnt\n` +
    `  cost       ${sunAndTrx(r.total_cost_sun)}; burning TRX instead: ${sunAndTrx(r.burn_cost_sun)}\n` +
    `  ${r.saving_sun >= 0 ? s.green('saved') : s.yellow('extra')}      ${sunAndTrx(Math.abs(r.saving_sun))}\n`
  );
}

/** The exact command that finishes this transfer: the same one, with its idempotency key. */
function finishCommand(ctx: Context, token: string, opts: SendOptions, key: string): string {
  const q = (v: string) => (/^[\w@%+=:,./~-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  const parts = ['send', q(token), '--to', q(opts.to!), '--amount', q(opts.amount!)];
  parts.push(...signerArgs(opts, q));
  if (opts.duration !== '1h') parts.push('--duration', q(opts.duration));
  if (opts.maxCost) parts.push('--max-cost', q(opts.maxCost));
  if (opts.burn) parts.push('--burn');
  if (opts.node) parts.push('--node', q(opts.node));
  if (opts.timeout !== '2m') parts.push('--timeout', q(opts.timeout));
  parts.push('--idempotency-key', q(key));
  if (ctx.opts.yes) parts.push('--yes');
  if (ctx.opts.json) parts.push('--json');
  return ctx.resumeCommand(parts.join(' ')) ?? `trx-rent ${parts.join(' ')}`;
}

/** What a stop at `details.stage` means for the money, in words. */
function stageText(d: Record<string, unknown>): string {
  const tx = typeof d.tx_id === 'string' ? d.tx_id : undefined;
  const order = typeof d.order_id === 'string' ? d.order_id : undefined;
  switch (d.stage) {
    case 'order':
      return `during the order request (stage order): an order may have been placed${d.order_key ? ` (Idempotency-Key ${String(d.order_key)})` : ''}; the transfer was not sent`;
    case 'delegation':
      return `while waiting for ${order ? `order ${order}` : 'the order'} and its delegation (stage delegation): the transfer was not sent${order ? `; order ${order} was placed and goes on` : ''}`;
    case 'sign':
      return `before the broadcast (stage sign)${order ? `, after order ${order}` : ''}: the transfer was not sent`;
    case 'broadcast':
      return `during the broadcast of transfer ${tx} (stage broadcast): the transfer may have been sent (outcome unknown)`;
    case 'receipt':
      return `while waiting for the receipt of transfer ${tx} (stage receipt): the transfer may have been sent (outcome unknown)`;
    default:
      return 'before anything was ordered or sent';
  }
}

/**
 * The error a stopped send ends with: the stage reached, the tx id and order id, and the exact
 * command that finishes the job without paying twice (the same command with the same key).
 */
function stopped(ctx: Context, error: unknown, token: string, opts: SendOptions, key: string, signal: string | undefined): unknown {
  const d = ((error as { details?: Record<string, unknown> } | null)?.details ?? {}) as Record<string, unknown>;
  if (!d.stage && !signal) return error;
  const command = finishCommand(ctx, token, opts, key);
  const after =
    d.stage === 'broadcast' || d.stage === 'receipt'
      ? ' (it re-broadcasts the same transaction and waits for it; it never signs a new one while this one may land)'
      : '';
  const check = typeof d.tx_id === 'string' && (d.stage === 'broadcast' || d.stage === 'receipt') ? `; check it with: trx-rent tx ${d.tx_id}` : '';
  const details: Record<string, unknown> = { ...d, idempotency_key: key, finish_command: command };
  if (d.stage) details.transfer_sent = d.stage === 'broadcast' || d.stage === 'receipt' ? (d.transfer_sent === true ? true : 'unknown') : false;
  if (signal) {
    const e = new InterruptedError(`Interrupted (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}) ${stageText(d)}.`, { signal, details });
    return Object.assign(e, { hint: `finish with: ${command}${after}${check}` });
  }
  const message = `${(error as Error).message} [stopped ${stageText(d)}]`;
  const out = new CliError(String((error as { code?: unknown }).code ?? 'UNEXPECTED'), message, {
    exitCode: exitCodeFor(error),
    hint: `finish with: ${command}${after}${check}`,
    cause: error,
  });
  out.details = details;
  return out;
}

async function runSend(ctx: Context, { args: [token], opts }: { args: [string]; opts: SendOptions }) {
  if (opts.batch) return (await import('./send-batch.js')).runSendBatch(ctx, token, opts, senderKeys);
  if (!opts.to) throw new UsageError('missing --to ADDRESS', 'e.g. --to TXYZ…', 'MISSING_ARGUMENT');
  if (!opts.amount) throw new UsageError('missing --amount', 'e.g. --amount 10', 'MISSING_ARGUMENT');
  const to = await parseAddress(opts.to, '--to');
  const duration = parseDuration(opts.duration);
  const maxCostSun = opts.maxCost ? parseTrx(opts.maxCost, '--max-cost') : undefined;
  const idempotencyKey = parseIdempotencyKey(opts.idempotencyKey) ?? randomUUID();
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  const signing = await senderKeys(ctx, opts);
  ctx.chain.useStore(storeSetting(ctx, opts.store)?.url);
  const { transfers } = await ctx.chain.handles(opts.tronNode ?? opts.node);
  const out = ctx.out;
  const s = out.s;
  if (!opts.idempotencyKey) {
    out.diag(`idempotency key ${idempotencyKey}: if this run stops, finish it with: ${finishCommand(ctx, token, opts, idempotencyKey)}`);
  }

  // Ctrl+C (or SIGTERM) stops at the next step; the error then says how far it got.
  const interrupt = ctx.interruptible();
  let spinner: ReturnType<typeof out.spinner> | undefined;
  let sent: SentTransfer;
  try {
    sent = await transfers.send({
      token,
      to,
      amount: opts.amount,
      ...signing,
      duration,
      maxCostSun,
      burn: opts.burn,
      idempotencyKey,
      timeoutMs,
      signal: interrupt.signal,
      confirmation: opts.solidified ? 'solidified' : 'included',
      confirm: async (estimate) => {
        ctx.spending = { sun: estimate.rent?.cost_sun ?? 0, currency: 'TRX' };
        out.print(renderEstimate(estimate, Boolean(opts.burn), s));
        const cost = opts.burn ? estimate.burn.total_sun : estimate.with_rental_sun;
        const saving = opts.burn ? '' : estimate.saving_sun > 0 ? `, saving ${sunAndTrx(estimate.saving_sun)} against burning` : '';
        await ctx.ask.confirm(
          `Send ${estimate.amount} ${tokenName(estimate)} from ${estimate.from} to ${estimate.to} for about ${sunAndTrx(cost)}${saving}?`,
          'send the transfer',
        );
        spinner = out.spinner(estimate.rent && !opts.burn ? `Renting ${groupDigits(String(estimate.rent.amount))} energy…` : 'Signing…');
        return true;
      },
      onProgress: (e: ProgressEvent) => {
        const text = progressText(e, Boolean(opts.solidified));
        if (text) spinner ? spinner.update(text) : e.step === 'resumed' && out.info(text);
      },
    });
  } catch (error) {
    throw stopped(ctx, error, token, opts, idempotencyKey, interrupt.interrupted());
  } finally {
    spinner?.stop();
    interrupt.done();
  }
  out.result(sent, () => renderSent(sent, s));
}

export default command;
