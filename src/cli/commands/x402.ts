/**
 * `trx-rent x402 <command>`: the twelve pay-per-call endpoints, each paid through x402.
 *
 * The wallet comes from a key file (`--key-file`, `-` for stdin), the environment
 * (`TRX_RENT_X402_TRON_KEY`, `TRX_RENT_X402_EVM_KEY`) or a hidden prompt — never from a bare
 * argument (it would land in shell history and `ps`); settings.ts decides which. The price is
 * shown before paying and confirmed (a terminal prompt, or `--yes` for scripts); `--max-payment`
 * caps what one call may cost (default: the x402 client's, the documented price).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { type Context, action } from '../context.js';
import { CancelledError, CliError, EXIT, UsageError } from '../errors.js';
import { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES, orList } from '../facts.js';
import { parseChoice, parseInteger } from '../parse.js';
import { ENV, type Sourced, type X402Keys, describeSource, isHexKey } from '../settings.js';
import type { CommandModule } from '../types.js';
import { renderData } from '../views.js';
import { formatDuration, groupDigits, trxOf } from '../format.js';
import { type Styles, renderTable } from '../output.js';

type X402 = typeof import('../../x402/index.js');

export interface PaidOptions {
  keyFile?: string;
  payWith?: string;
  maxPayment?: string;
  prefer?: string;
  scheme?: string;
  gasfreeRelayer?: string;
  fullNode?: string;
  tronNode?: string;
}

const WALLET_HELP =
  `\nWallet: set ${ENV.x402TronKey} (TRON) and/or ${ENV.x402EvmKey} (Base), or pass --key-file FILE ` +
  '(- for stdin); prefer these over the hidden prompt in scripts. A private key is never taken as an argument.';

export function paidOptions(cmd: Command): Command {
  return cmd
    .option('--key-file <path>', `wallet key file: a hex private key, or JSON {"tron": "…", "evm": "…"}; "-": stdin (or env ${ENV.x402TronKey} / ${ENV.x402EvmKey})`)
    .option('--pay-with <chain>', 'tron (USDT/USDC/USDD) or base (USDC); default: every wallet found')
    .option('--max-payment <usd>', 'most this call may cost, in USD (default: the documented price of a call)')
    .option('--prefer <list>', 'preferred offers, comma separated: tron, base, USDT, tron/USDD, exact_permit…')
    .option('--scheme <scheme>', 'TRON scheme: exact_permit, exact_gasfree or exact (default: any)')
    .option('--gasfree-relayer <url>', 'GasFree relayer for exact_gasfree (default: BankofAI, or the embedded mock’s)')
    .option('--full-node <url>', 'TRON full node for reference blocks (the same setting as --tron-node elsewhere: env TRX_RENT_TRON_NODE, profile tron_node; default: the mock\'s own when the base URL is a reference mock, else TronGrid)')
    .addOption(new Option('--tron-node <url>', 'the same as --full-node').hideHelp())
    .addHelpText('after', WALLET_HELP);
}

const wallets = new WeakMap<Context, Promise<X402Keys>>();

/** The wallet by precedence (settings.ts), else a hidden prompt at a terminal; once per run. */
function loadWallet(ctx: Context, opts: PaidOptions): Promise<X402Keys> {
  let wallet = wallets.get(ctx);
  if (!wallet) {
    wallet = findWallet(ctx, opts);
    wallets.set(ctx, wallet);
  }
  return wallet;
}

async function findWallet(ctx: Context, opts: PaidOptions): Promise<X402Keys> {
  const keys = await ctx.settingsResolver.x402Keys(opts, () => ctx.readStdin());
  if (keys) return keys;
  // On the embedded mock a throwaway key pays (the mock accepts any payer; nothing real moves), as `mcp --mock` does.
  if (ctx.opts.mock) {
    const value = randomBytes(32).toString('hex');
    return opts.payWith === 'base' ? { evm: { value: `0x${value}`, source: { kind: 'mock' } } } : { tron: { value, source: { kind: 'mock' } } };
  }
  if (!ctx.interactive) {
    throw new UsageError('no wallet to pay with', `pass --key-file FILE or set ${ENV.x402TronKey} / ${ENV.x402EvmKey} (a key is never taken as an argument)`, 'MISSING_ARGUMENT');
  }
  const { password } = await ctx.prompts();
  const chain = opts.payWith === 'base' ? 'evm' : 'tron';
  const value = (
    await password({
      message: `${chain === 'evm' ? 'Base (EVM)' : 'TRON'} private key (hex, not shown):`,
      mask: true,
      validate: (v: string) => isHexKey(v.trim()) || '64 hex characters, with or without 0x',
    })
  ).trim();
  const key: Sourced = { value, source: { kind: 'prompt' } };
  return chain === 'evm' ? { evm: key } : { tron: key };
}

function walletSource(wallet: X402Keys): string {
  return [...new Set([wallet.tron, wallet.evm].filter((k) => k !== undefined).map((k) => describeSource(k.source)))].join(', ');
}

export interface PaidRun {
  sdk: X402;
  client: InstanceType<X402['X402Client']>;
}

/** The x402 client for this run: wallet, payers, limits, and the confirm-before-paying hook. */
export async function paidClient(ctx: Context, opts: PaidOptions): Promise<PaidRun> {
  const settings = await ctx.settings(false);
  if (!settings.baseUrl) {
    throw new UsageError('No API base URL', 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock', 'CONFIGURATION_ERROR');
  }
  const payWith = opts.payWith === undefined ? undefined : parseChoice(opts.payWith.toLowerCase(), ['tron', 'base'] as const, '--pay-with');
  const scheme = opts.scheme === undefined ? undefined : parseChoice(opts.scheme, ['exact_permit', 'exact_gasfree', 'exact'] as const, '--scheme');
  const baseUrl = settings.baseUrl.value;
  const sdk = await import('../../x402/index.js');
  const wallet = await loadWallet(ctx, opts);
  ctx.debug(`x402 wallet from ${walletSource(wallet)}`);
  const node = await ctx.tronNode(opts.fullNode ?? opts.tronNode);
  const mock = Boolean(ctx.opts.mock);
  // A mock's relayer too, when the base URL is a reference mock (payments there still ask first).
  const onMock = mock || node.source.kind === 'running-mock' || node.source.kind === 'reference-mock';
  const payers = [];
  if (wallet.tron && payWith !== 'base') {
    payers.push(
      sdk.tronPayer({
        privateKey: wallet.tron.value,
        ...(scheme ? { schemes: [scheme] } : {}),
        ...(opts.gasfreeRelayer || onMock ? { gasfreeRelayer: opts.gasfreeRelayer ?? `${baseUrl}/__mock/gasfree` } : {}),
        ...(node.url ? { fullNode: node.url } : {}),
      }),
    );
  }
  if (wallet.evm && payWith !== 'tron') payers.push(sdk.evmPayer({ privateKey: wallet.evm.value }));
  if (!payers.length) throw new UsageError(`no ${payWith} key in the wallet (${walletSource(wallet)})`);
  const client = new sdk.X402Client({
    baseUrl,
    payers,
    ...(opts.maxPayment !== undefined ? { maxPayment: opts.maxPayment } : {}),
    ...(opts.prefer ? { prefer: opts.prefer.split(',').map((p) => p.trim()).filter(Boolean) } : {}),
    headers: { 'user-agent': `trx-rent-cli/${ctx.version}` },
    fetch: ctx.fetch,
    logLevel: ctx.opts.verbose ? 'debug' : 'off',
    onPayment: async (quote) => {
      const price = `${quote.amount_usd} USD in ${quote.symbol} on ${quote.networkLabel} (${quote.scheme}) to ${quote.payTo}`;
      ctx.out.info(`${ctx.out.e.bold('x402')} ${quote.method} ${quote.path} costs ${ctx.out.e.bold(price)}, paid by ${quote.payer}`);
      // The embedded mock's money is pretend: pay without asking, so `--mock x402 …` runs in a pipe too.
      if (mock) return;
      await ctx.confirm(`Pay ${quote.amount_usd} USD for ${quote.path}?`, `pay ${quote.amount_usd} USD`);
    },
    ...(ctx.opts.verbose ? { logger: { debug: (m: string) => ctx.debug(m) } } : {}),
  });
  return { sdk, client };
}

/** Run one paid call; print `{ data, payment }` (json) or the data and a receipt line (human). */
async function paid<T>(
  ctx: Context,
  opts: PaidOptions,
  call: (run: PaidRun) => Promise<{ data: T; payment: unknown }>,
  human?: (data: T, s: Styles) => string,
): Promise<void> {
  const run = await paidClient(ctx, opts);
  let result: { data: T; payment: unknown };
  try {
    result = await call(run);
  } catch (error) {
    throw translate(run.sdk, error);
  }
  const payment = result.payment as { amount_usd: string; symbol: string; network: string; scheme: string; transaction: string | null } | null;
  ctx.out.result({ data: result.data, payment }, () => {
    const s = ctx.out.s;
    const body = (human && Array.isArray(result.data) && result.data.length ? human(result.data, s) : renderData(result.data, s)).replace(/\n$/, '');
    const receipt = payment
      ? s.dim(`paid ${payment.amount_usd} USD in ${payment.symbol} on ${run.sdk.networkLabel(payment.network)} (${payment.scheme})${payment.transaction ? `, tx ${payment.transaction}` : ''}`)
      : s.dim('no payment was asked for');
    return `${body}\n${receipt}`;
  });
}

/** x402 prices with the headers and digit grouping of `trx-rent prices` (SUN/UNIT, TIER, AVAILABLE). */
function renderX402Prices(rows: Array<Record<string, unknown>>, s: Styles): string {
  const sorted = [...rows].sort((a, b) => Number(a.price_sun) - Number(b.price_sun));
  return renderTable(
    [
      { header: 'PROVIDER', shrink: 0 },
      { header: 'RESOURCE', truncate: 'none' },
      { header: 'SUN/UNIT', align: 'right', truncate: 'none' },
      { header: 'TRX/UNIT', align: 'right', truncate: 'none' },
      { header: 'TIER', truncate: 'none' },
      { header: 'AVAILABLE', align: 'right', truncate: 'none' },
    ],
    sorted.map((r, i) => [
      i === 0 ? s.green(String(r.provider)) : String(r.provider),
      String(r.resource_type ?? '').toLowerCase(),
      String(r.price_sun),
      trxOf(Number(r.price_sun)),
      r.duration_sec === undefined ? '-' : formatDuration(Number(r.duration_sec)),
      r.available === undefined ? '-' : groupDigits(String(r.available)),
    ]),
    s,
  );
}

export function translate(sdk: X402, error: unknown): unknown {
  if (error instanceof sdk.PaymentRefusedError) {
    const reasons = [...new Set(error.offers.map((o) => o.reason))];
    const above = error.offers.find((o) => o.reason === 'above_max_payment');
    const hint = reasons.includes('declined')
      ? 'nothing was paid'
      : above
        ? `the cheapest offer costs ${above.amount_usd ?? '?'} USD; raise --max-payment to pay it`
        : reasons.includes('no_payer')
          ? 'no wallet can pay these offers; try --pay-with base or another --scheme'
          : 'nothing was signed';
    if (reasons.includes('declined')) return new CancelledError();
    return new CliError('PAYMENT_REFUSED', error.message, { exitCode: EXIT.USAGE, hint });
  }
  if (error instanceof sdk.PaymentFailedError) {
    return new CliError('PAYMENT_FAILED', error.message, { exitCode: EXIT.API, hint: `the server rejected the payment (${error.reason}); it was not retried` });
  }
  if (error instanceof sdk.MissingPeerDependencyError) {
    return new CliError('MISSING_PEER_DEPENDENCY', error.message, { exitCode: EXIT.API, hint: `npm install ${error.packages.join(' ')}` });
  }
  return error;
}

function decimal(input: string, name: string): string {
  const text = String(input).trim();
  if (!/^\d+(\.\d+)?$/.test(text) || !/[1-9]/.test(text)) throw new UsageError(`${name} must be a positive decimal like 1.5, got ${JSON.stringify(input)}`);
  return text;
}

function jsonArg(input: string | undefined, name: string): Record<string, unknown> {
  if (input === undefined) return {};
  try {
    const value = JSON.parse(input) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new UsageError(`${name} must be a JSON object, got ${JSON.stringify(input)}`);
}

async function readFileOrStdin(ctx: Context, path: string | undefined, what: string): Promise<string> {
  if (path && path !== '-') {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  if (ctx.stdin.isTTY) throw new UsageError(`no ${what}`, `pass --file FILE or pipe it on stdin`, 'MISSING_ARGUMENT');
  return ctx.readStdin();
}

const command: CommandModule = {
  description:
    'Pay-per-call API (x402): each call is paid in USDT/USDC/USDD on TRON or USDC on Base from your ' +
    `wallet (--key-file, or ${ENV.x402TronKey} / ${ENV.x402EvmKey}, or a hidden prompt; never an argument; prefer the ` +
    'environment or a file in scripts). The price is shown before paying; confirm on the terminal or pass --yes. ' +
    '--max-payment caps one call (default: the documented price of a call).',
  register(cmd: Command) {
    registerX402Prices(cmd);
    registerX402Account(cmd);
    registerX402Estimate(cmd);
    registerX402SwapQuote(cmd);
    registerX402Network(cmd);
    registerX402Invoice(cmd);
    registerX402Watch(cmd);
    registerX402Receive(cmd);
    registerX402Send(cmd);
    registerX402SendBatch(cmd);
    registerX402SwapExecute(cmd);
    registerX402Rpc(cmd);
  },
};

function registerX402Prices(cmd: Command): void {
  paidOptions(cmd.command('prices').description('energy/bandwidth prices from several providers').argument('[resource]', 'energy, bandwidth or all', 'all')).action(action<[string], PaidOptions>(runX402Prices));
}

async function runX402Prices(ctx: Context, { args: [resource], opts }: { args: [string]; opts: PaidOptions }) {
  const r = resource.toLowerCase();
  const query = r === 'all' ? {} : { resource: parseChoice(r, ['energy', 'bandwidth'] as const, 'resource').toUpperCase() as 'ENERGY' | 'BANDWIDTH' };
  await paid(ctx, opts, ({ client }) => client.prices(query), (rows, s) => renderX402Prices(rows as unknown as Array<Record<string, unknown>>, s));
}

function registerX402Account(cmd: Command): void {
  paidOptions(cmd.command('account').description('TRX balance, resources and TRC-20 balances of an address').argument('<address>', 'TRON address')).action(action<[string], PaidOptions>(runX402Account));
}

async function runX402Account(ctx: Context, { args: [address], opts }: { args: [string]; opts: PaidOptions }) {
  await paid(ctx, opts, ({ client }) => client.account(address));
}

function registerX402Estimate(cmd: Command): void {
  paidOptions(
    cmd
      .command('estimate')
      .description('energy, bandwidth and TRX cost of a transaction')
      .argument('<operation>', orList(ESTIMATE_OPERATIONS))
      .option('--to <address>', 'recipient')
      .option('--amount <amount>', 'amount (token units)')
      .option('--contract <address>', 'token or contract'),
  ).action(action<[string], X402EstimateOptions>(runX402Estimate));
}

interface X402EstimateOptions extends PaidOptions {
  to?: string;
  amount?: string;
  contract?: string;
}

async function runX402Estimate(ctx: Context, { args: [operation], opts }: { args: [string]; opts: X402EstimateOptions }) {
  const op = parseChoice(operation, ESTIMATE_OPERATIONS, 'operation');
  await paid(ctx, opts, ({ client }) =>
    client.estimate({
      operation: op,
      ...(opts.to ? { to: opts.to } : {}),
      ...(opts.amount ? { amount: decimal(opts.amount, '--amount') } : {}),
      ...(opts.contract ? { contract: opts.contract } : {}),
    }),
  );
}

function registerX402SwapQuote(cmd: Command): void {
  paidOptions(
    cmd.command('swap-quote').description('DEX quote for a token swap').argument('<from>', 'symbol or contract').argument('<to>', 'symbol or contract').argument('<amount>', 'amount of <from>'),
  ).action(action<[string, string, string], PaidOptions>(runX402SwapQuote));
}

async function runX402SwapQuote(ctx: Context, { args: [from, to, amount], opts }: { args: [string, string, string]; opts: PaidOptions }) {
  await paid(ctx, opts, ({ client }) => client.swapQuote({ from, to, amount: decimal(amount, 'amount') }));
}

function registerX402Network(cmd: Command): void {
  paidOptions(cmd.command('network').description('TRON chain parameters').option('--summary', 'the short form')).action(action<[], X402NetworkOptions>(runX402Network));
}

interface X402NetworkOptions extends PaidOptions {
  summary?: boolean;
}

async function runX402Network(ctx: Context, { opts }: { opts: X402NetworkOptions }) {
  await paid(ctx, opts, ({ client }) => client.network({ format: opts.summary ? 'summary' : 'full' }));
}

function registerX402Invoice(cmd: Command): void {
  paidOptions(
    cmd
      .command('invoice')
      .description('a USDT invoice whose payments are detected automatically')
      .argument('<amount>', 'USDT')
      .option('--description <text>')
      .option('--pay-to <address>', 'receiving address (default: a fresh one)')
      .option('--expires-in <seconds>', "lifetime in seconds (default: the service's)"),
  ).action(action<[string], X402InvoiceOptions>(runX402Invoice));
}

interface X402InvoiceOptions extends PaidOptions {
  description?: string;
  payTo?: string;
  expiresIn?: string;
}

async function runX402Invoice(ctx: Context, { args: [amount], opts }: { args: [string]; opts: X402InvoiceOptions }) {
  await paid(ctx, opts, ({ client }) =>
    client.invoice({
      amount_usdt: decimal(amount, 'amount'),
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.payTo ? { pay_to_address: opts.payTo } : {}),
      ...(opts.expiresIn !== undefined ? { expires_in_seconds: parseInteger(opts.expiresIn, '--expires-in', { min: 1 }) } : {}),
    }),
  );
}

function registerX402Watch(cmd: Command): void {
  paidOptions(
    cmd
      .command('watch')
      .description('a webhook on each incoming TRC-20 transfer to an address, for 24 hours')
      .argument('<address>', 'TRON address to watch')
      .requiredOption('--webhook-url <url>', 'where events are POSTed')
      .option('--events <list>', `${WATCH_EVENT_TYPES.join(', ')} (comma separated)`)
      .option('--token <address>', 'only this token contract')
      .option('--min-amount <amount>', 'ignore smaller transfers'),
  ).action(action<[string], X402WatchOptions>(runX402Watch));
}

interface X402WatchOptions extends PaidOptions {
  webhookUrl: string;
  events?: string;
  token?: string;
  minAmount?: string;
}

async function runX402Watch(ctx: Context, { args: [address], opts }: { args: [string]; opts: X402WatchOptions }) {
  await paid(ctx, opts, ({ client }) =>
    client.watch({
      address,
      webhook_url: opts.webhookUrl,
      ...(opts.events ? { event_types: opts.events.split(',').map((e) => e.trim()) as never } : {}),
      ...(opts.token ? { token_contract: opts.token } : {}),
      ...(opts.minAmount ? { min_amount: decimal(opts.minAmount, '--min-amount') } : {}),
    }),
  );
}

function registerX402Receive(cmd: Command): void {
  paidOptions(
    cmd
      .command('receive')
      .description('a one-time watch for an expected payment')
      .argument('<amount>', 'expected amount (token units)')
      .option('--token <address>', 'token contract (default USDT)')
      .option('--tolerance <pct>', "accepted difference, percent (default: the service's)")
      .option('--timeout <seconds>', "how long to wait (default: the service's)")
      .option('--webhook-url <url>', 'notified when the payment arrives'),
  ).action(action<[string], X402ReceiveOptions>(runX402Receive));
}

interface X402ReceiveOptions extends PaidOptions {
  token?: string;
  tolerance?: string;
  timeout?: string;
  webhookUrl?: string;
}

async function runX402Receive(ctx: Context, { args: [amount], opts }: { args: [string]; opts: X402ReceiveOptions }) {
  const tolerance = opts.tolerance === undefined ? undefined : Number(opts.tolerance);
  if (opts.tolerance !== undefined && (!/^\d+(\.\d+)?$/.test(opts.tolerance) || tolerance! > 100)) throw new UsageError('--tolerance must be a percentage between 0 and 100');
  await paid(ctx, opts, ({ client }) =>
    client.receive({
      expected_amount: decimal(amount, 'amount'),
      ...(opts.token ? { token_contract: opts.token } : {}),
      ...(tolerance !== undefined ? { tolerance_pct: tolerance } : {}),
      ...(opts.timeout !== undefined ? { timeout_seconds: parseInteger(opts.timeout, '--timeout', { min: 1 }) } : {}),
      ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}),
    }),
  );
}

function registerX402Send(cmd: Command): void {
  paidOptions(
    cmd
      .command('send')
      .description('send USDT: a transfer you signed (--signed-tx-file), or one signed here with the wallet’s TRON key')
      .requiredOption('--to <address>', 'recipient')
      .requiredOption('--amount <usdt>', 'USDT amount')
      .option('--signed-tx-file <path>', 'a signed transaction (JSON); "-" for stdin')
      .option('--memo <text>'),
  ).action(action<[], X402SendOptions>(runX402Send));
}

interface X402SendOptions extends PaidOptions {
  to: string;
  amount: string;
  signedTxFile?: string;
  memo?: string;
}

async function runX402Send(ctx: Context, { opts }: { opts: X402SendOptions }) {
  const amount = decimal(opts.amount, '--amount');
  let signedTx: string | undefined;
  if (opts.signedTxFile) signedTx = (await readFileOrStdin(ctx, opts.signedTxFile, 'signed transaction')).trim();
  await paid(ctx, opts, async ({ client, sdk }) => {
    if (!signedTx) {
      const wallet = await loadWallet(ctx, opts);
      if (!wallet.tron) throw new UsageError('signing a transfer needs a TRON key in the wallet');
      const node = await ctx.tronNode(opts.fullNode ?? opts.tronNode);
      const signed = await sdk.signTrc20Transfer({
        privateKey: wallet.tron.value,
        to: opts.to,
        amount,
        fetch: ctx.fetch,
        ...(node.url ? { fullNode: node.url } : {}),
      });
      ctx.out.info(`signed transfer ${signed.txID} from ${signed.from}`);
      signedTx = signed.signed_tx;
    }
    return client.send({ to: opts.to, amount_usdt: amount, signed_tx: signedTx, ...(opts.memo ? { memo: opts.memo } : {}) });
  });
}

function registerX402SendBatch(cmd: Command): void {
  paidOptions(
    cmd
      .command('send-batch')
      .description('signed transfers in one call (up to the service\'s batch limit): a JSON array of {to, amount, signed_tx}')
      .option('-f, --file <path>', 'the JSON array; "-" or omitted: stdin'),
  ).action(action<[], X402SendBatchOptions>(runX402SendBatch));
}

interface X402SendBatchOptions extends PaidOptions {
  file?: string;
}

async function runX402SendBatch(ctx: Context, { opts }: { opts: X402SendBatchOptions }) {
  const text = await readFileOrStdin(ctx, opts.file, 'transfers');
  let transfers: unknown;
  try {
    transfers = JSON.parse(text);
  } catch {
    throw new UsageError('the transfers are not JSON', 'pass a JSON array of {to, amount, signed_tx}');
  }
  const list = Array.isArray(transfers) ? transfers : (transfers as { transfers?: unknown })?.transfers;
  if (!Array.isArray(list)) throw new UsageError('expected a JSON array of {to, amount, signed_tx}');
  await paid(ctx, opts, ({ client }) => client.sendBatch(list as never));
}

function registerX402SwapExecute(cmd: Command): void {
  paidOptions(
    cmd
      .command('swap-execute')
      .description('execute a token swap (energy provided)')
      .argument('<from>', 'symbol or contract')
      .argument('<to>', 'symbol or contract')
      .argument('<amount>', 'amount of <from>')
      .option('--slippage <pct>', "accepted slippage, percent (default: the service's)"),
  ).action(action<[string, string, string], X402SwapExecuteOptions>(runX402SwapExecute));
}

interface X402SwapExecuteOptions extends PaidOptions {
  slippage?: string;
}

async function runX402SwapExecute(ctx: Context, { args: [from, to, amount], opts }: { args: [string, string, string]; opts: X402SwapExecuteOptions }) {
  const slippage = opts.slippage === undefined ? undefined : Number(opts.slippage);
  if (opts.slippage !== undefined && (!/^\d+(\.\d+)?$/.test(opts.slippage) || slippage! > 50)) throw new UsageError('--slippage must be a percentage between 0 and 50');
  await paid(ctx, opts, ({ client }) =>
    client.swapExecute({ from_token: from, to_token: to, amount: decimal(amount, 'amount'), ...(slippage !== undefined ? { slippage_pct: slippage } : {}) }),
  );
}

function registerX402Rpc(cmd: Command): void {
  paidOptions(
    cmd
      .command('rpc')
      .description('a whitelisted TRON node call, e.g. `rpc getnowblock` or `rpc getaccount \'{"address":"T…","visible":true}\'`')
      .argument('<method>', 'getnowblock, getaccount, getaccountresource, gettransactionbyid, gettransactioninfobyid, getcontractinfo, triggerconstantcontract, getchainparameters, getblockbynum')
      .argument('[body]', 'JSON object', '{}'),
  ).action(action<[string, string], PaidOptions>(runX402Rpc));
}

async function runX402Rpc(ctx: Context, { args: [method, body], opts }: { args: [string, string]; opts: PaidOptions }) {
  const parsed = jsonArg(body, 'body');
  await paid(ctx, opts, ({ client }) => client.rpc(method, parsed));
}

export default command;
