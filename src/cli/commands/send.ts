import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { ProgressEvent, SentTransfer, TransferEstimate } from '../../tron/engine.js';
import { type Context, action } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { formatDuration, groupDigits, sunAndTrx } from '../format.js';
import { parseAddress, parseDuration, parseIdempotencyKey, parseTrx } from '../parse.js';
import { ENV, isHexKey, readSecretFile } from '../settings.js';
import type { CommandModule } from '../types.js';
import { type BatchOptions, registerBatchOptions } from './send-batch.js';

interface SendOptions extends BatchOptions {
  to?: string;
  amount?: string;
  keyFile?: string;
  duration: string;
  maxCost?: string;
  burn?: boolean;
  idempotencyKey?: string;
  node?: string;
  timeout: string;
}

const command: CommandModule = {
  description:
    'Send a TRC-20 token (USDT, USDC, USDD or a contract address) without burning TRX for its energy: ' +
    'estimates the energy and bandwidth on a TRON node, shows what renting costs against burning and asks ' +
    'to confirm (unless --yes), rents the deficit and waits for the delegation, signs the transfer locally, ' +
    'broadcasts it through the service (its broadcast endpoint, `client.transactions.broadcast`) and waits for the receipt. The key comes ' +
    `from --key-file, ${ENV.privateKey} or a hidden prompt, never from the command line.`,
  register(cmd: Command) {
    registerBatchOptions(cmd)
      .usage('<token> --to ADDRESS --amount N [--key-file FILE] [--duration 1h] [--max-cost TRX] [--yes] [--json]')
      .argument('<token>', 'usdt, usdc, usdd, or a TRC-20 contract address')
      .option('-t, --to <address>', 'recipient')
      .option('-a, --amount <amount>', 'amount in token units, e.g. 10 or 0.5')
      .option('--key-file <path>', `file holding the sender's hex private key (- for stdin; or env ${ENV.privateKey}; else asked, hidden)`)
      .option('-d, --duration <duration>', 'rental duration of the energy', '1h')
      .option('--max-cost <trx>', 'refuse (nothing ordered or sent) when renting costs more than this many TRX')
      .option('--burn', 'rent nothing: burn TRX for the energy (still shows the comparison)')
      .option('--idempotency-key <key>', 'reuse a key to make a retried command safe (default: a new UUID)')
      .option('--node <url>', `TRON full node to read (env ${ENV.tronNode}; default TronGrid, the mock's own with --mock)`)
      .option('--timeout <duration>', 'how long to wait for the fill, the delegation and the receipt', '2m')
      .addHelpText('after', '\nExamples:\n  trx-rent send usdt --to TXYZ… --amount 10 --key-file ~/.tron/key\n  TRX_RENT_PRIVATE_KEY=… trx-rent send usdt --to TXYZ… --amount 10 --yes --json')
      .action(action<[string], SendOptions>(runSend));
  },
};

/** The sender's key: --key-file (or - for stdin) > TRX_RENT_PRIVATE_KEY > a hidden prompt at a terminal. Never echoed. */
async function senderKey(ctx: import('../context.js').Context, keyFile: string | undefined): Promise<string> {
  let value: string | undefined;
  let where: string;
  if (keyFile) {
    value = keyFile === '-' ? (await ctx.readStdin()).trim() : readSecretFile(keyFile, '--key-file', (m) => ctx.out.warn(m)).value;
    where = keyFile === '-' ? '--key-file - (stdin)' : `--key-file ${keyFile}`;
  } else if (ctx.env[ENV.privateKey]?.trim()) {
    value = ctx.env[ENV.privateKey]!.trim();
    where = ENV.privateKey;
  } else {
    if (!ctx.interactive) {
      throw new UsageError('no signing key', `pass --key-file FILE (or - for stdin) or set ${ENV.privateKey}; keys are never taken from the command line`, 'MISSING_ARGUMENT');
    }
    const { password } = await ctx.prompts();
    value = (
      await password({ message: "Sender's private key (64 hex, input hidden)?", mask: '*', validate: (v: string) => (isHexKey(v.trim()) ? true : 'A private key is 64 hex characters') })
    ).trim();
    where = 'the prompt';
  }
  if (!isHexKey(value)) throw new UsageError(`${where} does not hold a 64-hex private key`);
  return value;
}

function tokenName(e: { token: { symbol: string | undefined; address: string } }): string {
  return e.token.symbol ?? e.token.address;
}

function progressText(e: ProgressEvent): string | undefined {
  switch (e.step) {
    case 'ordered':
      return `Order ${e.order.id} placed (${String(e.order.status)}); waiting for the fill…`;
    case 'filled':
      return `Order ${e.order.id} FILLED; waiting for the delegation on the node…`;
    case 'delegated':
      return `${groupDigits(String(e.after.energy))} energy on the node; signing…`;
    case 'signed':
      return `Signed ${e.tx_id}; broadcasting…`;
    case 'broadcast':
      return `Broadcast ${e.tx_id}; waiting for the receipt…`;
    default:
      return undefined;
  }
}

/** The estimate as the confirmation shows it: needs, has, burning against renting, the saving. */
export function renderEstimate(e: TransferEstimate, burn: boolean, s: import('../output.js').Styles): string {
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
    if (!burn) lines.push(`  ${e.saving_sun >= 0 ? s.green('saving') : s.yellow('extra ')}     ${sunAndTrx(Math.abs(e.saving_sun))}${e.saving_sun >= 0 ? '' : ' (renting costs more than burning here)'}`);
  } else {
    lines.push('  renting    nothing: the sender has the energy');
  }
  return `${lines.join('\n')}\n`;
}

/** A sent transfer: the receipt, the rental, the cost against burning. */
export function renderSent(r: SentTransfer, s: import('../output.js').Styles): string {
  const rent = r.ensure?.order
    ? `rented ${groupDigits(String(r.ensure.bought.energy))} energy (order ${r.ensure.order.id}) for ${sunAndTrx(r.rent_cost_sun)}`
    : 'rented nothing';
  return (
    `${s.green('✓')} Sent ${r.amount} ${tokenName(r)} to ${r.to} in block ${r.receipt.block}\n` +
    `  tx         ${r.tx_id}\n` +
    `  energy     ${groupDigits(String(r.receipt.energy_used))} used, ${sunAndTrx(r.receipt.energy_burned_sun)} burnt; ${rent}\n` +
    `  bandwidth  ${groupDigits(String(r.estimate.bandwidth.needed))} bytes, ${sunAndTrx(r.receipt.bandwidth_burned_sun)} burnt\n` +
    `  cost       ${sunAndTrx(r.total_cost_sun)}; burning TRX instead: ${sunAndTrx(r.burn_cost_sun)}\n` +
    `  ${r.saving_sun >= 0 ? s.green('saved') : s.yellow('extra')}      ${sunAndTrx(Math.abs(r.saving_sun))}\n`
  );
}

async function runSend(ctx: Context, { args: [token], opts }: { args: [string]; opts: SendOptions }) {
  if (opts.batch) return (await import('./send-batch.js')).runSendBatch(ctx, token, opts, senderKey);
  if (!opts.to) throw new UsageError('missing --to ADDRESS', 'e.g. --to TXYZ…', 'MISSING_ARGUMENT');
  if (!opts.amount) throw new UsageError('missing --amount', 'e.g. --amount 10', 'MISSING_ARGUMENT');
  const to = await parseAddress(opts.to, '--to');
  const duration = parseDuration(opts.duration);
  const maxCostSun = opts.maxCost ? parseTrx(opts.maxCost, '--max-cost') : undefined;
  const idempotencyKey = parseIdempotencyKey(opts.idempotencyKey) ?? randomUUID();
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  const privateKey = await senderKey(ctx, opts.keyFile);
  const { transfers } = await ctx.chain(opts.node);
  const out = ctx.out;
  const s = out.s;

  // Ctrl+C (or SIGTERM) stops at the next step; before the broadcast nothing is sent.
  const stop = new AbortController();
  const abort = new AbortController();
  let broadcastId: string | undefined;
  let orderId: string | undefined;
  void ctx.untilSignal(stop.signal).then((signal) => {
    const where = broadcastId
      ? `after the broadcast: transfer ${broadcastId} was sent; check it before sending again`
      : `before the broadcast: the transfer was not sent${orderId ? ` (order ${orderId} was placed and goes on)` : ''}`;
    abort.abort(new InterruptedError(`Interrupted (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}) ${where}.`, {
      signal,
      details: { transfer_sent: Boolean(broadcastId), ...(broadcastId ? { tx_id: broadcastId } : {}), ...(orderId ? { order_id: orderId } : {}) },
    }));
  }, () => undefined);
  let spinner: ReturnType<typeof out.spinner> | undefined;
  let sent: SentTransfer;
  try {
    sent = await transfers.send({
      token,
      to,
      amount: opts.amount,
      signer: { privateKey },
      duration,
      maxCostSun,
      burn: opts.burn,
      idempotencyKey,
      timeoutMs,
      signal: abort.signal,
      confirm: async (estimate) => {
        ctx.spending = { sun: estimate.rent?.cost_sun ?? 0, currency: 'TRX' };
        out.print(renderEstimate(estimate, Boolean(opts.burn), s));
        const cost = opts.burn ? estimate.burn.total_sun : estimate.with_rental_sun;
        const saving = opts.burn ? '' : estimate.saving_sun > 0 ? `, saving ${sunAndTrx(estimate.saving_sun)} against burning` : '';
        await ctx.confirm(
          `Send ${estimate.amount} ${tokenName(estimate)} from ${estimate.from} to ${estimate.to} for about ${sunAndTrx(cost)}${saving}?`,
          'send the transfer',
        );
        spinner = out.spinner(estimate.rent && !opts.burn ? `Renting ${groupDigits(String(estimate.rent.amount))} energy…` : 'Signing…');
        return true;
      },
      onProgress: (e: ProgressEvent) => {
        if (e.step === 'ordered') orderId = e.order.id;
        if (e.step === 'broadcast') broadcastId = e.tx_id;
        const text = progressText(e);
        if (text) spinner?.update(text);
      },
    });
  } finally {
    spinner?.stop();
    stop.abort();
  }
  out.result(sent, () => renderSent(sent, s));
}

export default command;
