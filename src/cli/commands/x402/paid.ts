/**
 * What every `trx-rent x402 …` command (and `trx-rent api` on a paid route) shares: the wallet
 * options, the wallet found by precedence (settings.ts) or a hidden prompt, the x402 client with
 * its confirm-before-paying hook, one paid call printed with its receipt, and the SDK's payment
 * errors turned into the CLI's.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError, CliError, EXIT, UsageError } from '../../errors.js';
import type { Styles } from '../../output.js';
import { parseChoice } from '../../parse.js';
import { ENV, type Sourced, type X402Keys, describeSource, isHexKey } from '../../settings.js';
import { renderData } from '../../views.js';

type X402 = typeof import('../../../x402/index.js');

/** The wallet and payment options every paid command takes. */
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

/** Add the wallet and payment options ({@link PaidOptions}) and the wallet help to `cmd`. */
export function paidOptions(cmd: Command): Command {
  return cmd
    .option(
      '--key-file <path>',
      `wallet key file: a hex private key, or JSON {"tron": "…", "evm": "…"}; "-": stdin (or env ${ENV.x402TronKey} / ${ENV.x402EvmKey})`,
    )
    .option('--pay-with <chain>', 'tron (USDT/USDC/USDD) or base (USDC); default: every wallet found')
    .option('--max-payment <usd>', 'most this call may cost, in USD (default: the documented price of a call)')
    .option('--prefer <list>', 'preferred offers, comma separated: tron, base, USDT, tron/USDD, exact_permit…')
    .option('--scheme <scheme>', 'TRON scheme: exact_permit, exact_gasfree or exact (default: any)')
    .option('--gasfree-relayer <url>', 'GasFree relayer for exact_gasfree (default: BankofAI, or the embedded mock’s)')
    .option(
      '--full-node <url>',
      "TRON full node for reference blocks (the same setting as --tron-node elsewhere: env TRX_RENT_TRON_NODE, profile tron_node; default: the mock's own when the base URL is a reference mock, else TronGrid)",
    )
    .addOption(new Option('--tron-node <url>', 'the same as --full-node').hideHelp())
    .addHelpText('after', WALLET_HELP);
}

const wallets = new WeakMap<Context, Promise<X402Keys>>();

/** The wallet by precedence (settings.ts), else a hidden prompt at a terminal; once per run. */
export function loadWallet(ctx: Context, opts: PaidOptions): Promise<X402Keys> {
  let wallet = wallets.get(ctx);
  if (!wallet) {
    wallet = findWallet(ctx, opts);
    wallets.set(ctx, wallet);
  }
  return wallet;
}

async function findWallet(ctx: Context, opts: PaidOptions): Promise<X402Keys> {
  const keys = await ctx.config.resolver.x402Keys(opts, () => ctx.readStdin());
  if (keys) return keys;
  // On the embedded mock a throwaway key pays (the mock accepts any payer; nothing real moves), as `mcp --mock` does.
  if (ctx.opts.mock) {
    const value = randomBytes(32).toString('hex');
    return opts.payWith === 'base' ? { evm: { value: `0x${value}`, source: { kind: 'mock' } } } : { tron: { value, source: { kind: 'mock' } } };
  }
  if (!ctx.interactive) {
    throw new UsageError(
      'no wallet to pay with',
      `pass --key-file FILE or set ${ENV.x402TronKey} / ${ENV.x402EvmKey} (a key is never taken as an argument)`,
      'MISSING_ARGUMENT',
    );
  }
  const { password } = await ctx.ask.prompts();
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

/** The x402 SDK module and the client of one run. */
export interface PaidRun {
  sdk: X402;
  client: InstanceType<X402['X402Client']>;
}

/** The x402 client for this run: wallet, payers, limits, and the confirm-before-paying hook. */
export async function paidClient(ctx: Context, opts: PaidOptions): Promise<PaidRun> {
  // Every call through this client may pay: a mock the CLI found is named before anything is paid.
  ctx.config.markSpending();
  const settings = await ctx.config.settings(false);
  if (!settings.baseUrl) {
    throw new UsageError('No API base URL', 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock', 'CONFIGURATION_ERROR');
  }
  const payWith = opts.payWith === undefined ? undefined : parseChoice(opts.payWith.toLowerCase(), ['tron', 'base'] as const, '--pay-with');
  const scheme = opts.scheme === undefined ? undefined : parseChoice(opts.scheme, ['exact_permit', 'exact_gasfree', 'exact'] as const, '--scheme');
  const baseUrl = settings.baseUrl.value;
  const sdk = await import('../../../x402/index.js');
  const wallet = await loadWallet(ctx, opts);
  ctx.debug(`x402 wallet from ${walletSource(wallet)}`);
  const node = await ctx.chain.tronNode(opts.fullNode ?? opts.tronNode);
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
    ...(opts.prefer
      ? {
          prefer: opts.prefer
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        }
      : {}),
    headers: { 'user-agent': `trx-rent-cli/${ctx.version}` },
    fetch: ctx.fetch,
    logLevel: ctx.opts.verbose ? 'debug' : 'off',
    onRetry: (event) => ctx.out.retrying(event),
    onPayment: async (quote) => {
      const price = `${quote.amount_usd} USD in ${quote.symbol} on ${quote.networkLabel} (${quote.scheme}) to ${quote.payTo}`;
      ctx.out.info(`${ctx.out.e.bold('x402')} ${quote.method} ${quote.path} costs ${ctx.out.e.bold(price)}, paid by ${quote.payer}`);
      // The embedded mock's money is pretend: pay without asking, so `--mock x402 …` runs in a pipe too.
      if (mock) return;
      await ctx.ask.confirm(`Pay ${quote.amount_usd} USD for ${quote.path}?`, `pay ${quote.amount_usd} USD`);
    },
    ...(ctx.opts.verbose ? { logger: { debug: (m: string) => ctx.debug(m) } } : {}),
  });
  return { sdk, client };
}

/** Run one paid call; print `{ data, payment }` (json) or the data and a receipt line (human). */
export async function paid<T>(
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
      ? s.dim(
          `paid ${payment.amount_usd} USD in ${payment.symbol} on ${run.sdk.networkLabel(payment.network)} (${payment.scheme})${payment.transaction ? `, tx ${payment.transaction}` : ''}`,
        )
      : s.dim('no payment was asked for');
    return `${body}\n${receipt}`;
  });
}

/** The x402 SDK's payment errors as the CLI's (exit code and hint); any other error as it is. */
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
