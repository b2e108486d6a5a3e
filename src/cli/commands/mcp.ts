/**
 * `trx-rent mcp`: the MCP server (src/mcp) for agents, over stdio or loopback HTTP. This file
 * only resolves settings the CLI way (flag > environment > profile: base URL, API key, the x402
 * wallet, the spend caps) and starts the server; the MCP SDK loads when the server starts.
 * Nothing is written to stdout in stdio mode: it carries the protocol.
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { UsageError } from '../errors.js';
import { parseInteger } from '../parse.js';
import { ENV, describeSource, missingKeyProblem, readSecretFile } from '../settings.js';
import { storeSetting } from '../store-setting.js';
import type { CommandModule } from '../types.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_LIMITS, DEFAULT_MAX_SESSIONS, MIN_TOKEN_LENGTH, type SpendLimits } from '../../mcp/limits.js';

interface McpOptions {
  allowSpend?: boolean;
  maxOrderTrx?: string;
  maxWithdrawal?: string;
  sessionLimit?: string;
  maxPayment?: string;
  x402Budget?: string;
  requireConfirmation?: boolean;
  spendWithoutConfirmation?: boolean;
  keyFile?: string;
  sweepMnemonicFile?: string;
  http?: string;
  tokenFile?: string;
  idleTimeout?: string;
  maxSessions?: string;
  saveLimits?: boolean;
  tronNode?: string;
  store?: string;
}

/** The HTTP bearer token's environment variable. */
const TOKEN_ENV = 'TRX_RENT_MCP_TOKEN';

/** Each cap: its flag's option key and the profile setting that holds it. */
const CAPS: Array<{ key: keyof SpendLimits & keyof McpOptions; setting: string }> = [
  { key: 'maxOrderTrx', setting: 'mcp_max_order_trx' },
  { key: 'maxWithdrawal', setting: 'mcp_max_withdrawal' },
  { key: 'sessionLimit', setting: 'mcp_session_limit' },
  { key: 'maxPayment', setting: 'mcp_max_payment' },
  { key: 'x402Budget', setting: 'mcp_x402_budget' },
];

/** Caps: flag > profile (mcp_* settings) > the defaults of src/mcp/limits.ts. */
async function limitsFor(ctx: Context, opts: McpOptions): Promise<SpendLimits> {
  let profile: Record<string, unknown> = {};
  if (CAPS.some((c) => opts[c.key] === undefined)) {
    try {
      profile = ((await ctx.config.profile()).settings ?? {}) as Record<string, unknown>;
    } catch (error) {
      ctx.debug(`no profile caps: ${String(error)}`);
    }
  }
  const limits: SpendLimits = {};
  for (const { key, setting } of CAPS) {
    const value = opts[key] ?? (typeof profile[setting] === 'string' ? (profile[setting] as string) : undefined);
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

/** `--save-limits`: the given caps into the profile's mcp_* settings. */
async function saveLimits(ctx: Context, opts: McpOptions): Promise<void> {
  const given = CAPS.filter((c) => opts[c.key] !== undefined);
  if (!given.length)
    throw new UsageError('--save-limits needs at least one cap to save', 'e.g. trx-rent mcp --max-order-trx 20 --session-limit 60 --save-limits');
  const { resolveLimits } = await import('../../mcp/limits.js');
  resolveLimits(Object.fromEntries(given.map((c) => [c.key, opts[c.key]]))); // checks each amount
  const name = await ctx.config.profileName();
  const store = await ctx.config.store();
  const patch = Object.fromEntries(given.map((c) => [c.setting, String(opts[c.key]).trim()]));
  store.updateProfile(name, patch as never);
  ctx.out.result(
    { profile: name, saved: patch },
    () =>
      `Saved to profile ${name}: ${Object.entries(patch)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
  );
}

const command: CommandModule = {
  description:
    'Run an MCP (Model Context Protocol) server so an agent can use trx-rent: prices, previews, orders, balance, history, deposits, ' +
    'withdrawals, webhooks and every x402 call, as tools. Read-only unless --allow-spend; spending is capped per call and per session ' +
    'and confirmed by the user where the client can ask. The API key and the x402 wallet come from the profile or the environment, ' +
    'never from the agent. Caps count across every session of the server. Serves stdio (what MCP clients start) or, with --http PORT, ' +
    'streamable HTTP on 127.0.0.1 behind a bearer token.',
  register(cmd: Command) {
    cmd
      .option('--allow-spend', 'let tools spend (orders, withdrawals, x402 payments) and change webhooks, within the caps')
      .option('--max-order-trx <trx>', `most one order may cost, in TRX (default ${DEFAULT_LIMITS.maxOrderTrx}; profile mcp_max_order_trx)`)
      .option('--max-withdrawal <amount>', 'most one withdrawal may move, in TRX or USDT (default: withdrawals off; profile mcp_max_withdrawal)')
      .option(
        '--session-limit <amount>',
        `most orders and withdrawals may spend together while the server runs, all sessions together, per currency (default ${DEFAULT_LIMITS.sessionLimit}; profile mcp_session_limit)`,
      )
      .option('--max-payment <usd>', `most one x402 call may cost, in USD (default ${DEFAULT_LIMITS.maxPayment}; profile mcp_max_payment)`)
      .option(
        '--x402-budget <usd>',
        `most all x402 calls may cost together while the server runs, all sessions together, in USD (default ${DEFAULT_LIMITS.x402Budget}; profile mcp_x402_budget)`,
      )
      .option(
        '--spend-without-confirmation',
        'let a spend go ahead when the client cannot ask the user (no elicitation support); without it such spends are refused',
      )
      .option('--require-confirmation', 'refuse spends the user cannot confirm (the default; kept for older scripts)')
      .option('--sweep-mnemonic-file <path>', 'the HD wallet (BIP-39 words in a file) whose deposit addresses the sweep tools collect from')
      .option('--key-file <path>', `x402 wallet: a hex key, or JSON {"tron": "…", "evm": "…"} (or env ${ENV.x402TronKey} / ${ENV.x402EvmKey})`)
      .option('--http <port>', 'serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (0: any free port); clients must send the bearer token')
      .option('--token-file <path>', `--http: the bearer token, from a file (or env ${TOKEN_ENV}); default: a random token printed once on stderr`)
      .option('--idle-timeout <seconds>', `--http: close a session after this many seconds without a request (default ${DEFAULT_IDLE_TIMEOUT_MS / 1000})`)
      .option('--max-sessions <n>', `--http: most live sessions; an initialize past it answers 503 (default ${DEFAULT_MAX_SESSIONS})`)
      .option(
        '--tron-node <url>',
        `TRON full node for ensure_resources, send_token and x402 payments (env ${ENV.tronNode}, profile tron_node; default: the mock's own when the base URL is a reference mock, else TronGrid with ${ENV.tronNodeApiKey})`,
      )
      .option(
        '--store <url>',
        `share the spend caps and signed transfers with the other servers on a PostgreSQL store: postgres://user:password@host/db (env ${ENV.store}; default: this server's own state folder)`,
      )
      .option('--save-limits', 'save the caps given as flags to the profile (mcp_* settings) and exit')
      .addHelpText(
        'after',
        '\nClient configuration (Claude Desktop and other `mcpServers` clients):\n' +
          '  { "mcpServers": { "trx-rent": { "command": "npx", "args": ["trx-rent", "mcp"],\n' +
          '      "env": { "TRX_RENT_API_KEY": "sk_live_…", "TRX_RENT_BASE_URL": "https://…" } } } }\n' +
          'Try it without an account: args ["trx-rent", "mcp", "--mock"]. Spend lines go to stderr.\n' +
          'Spending needs --allow-spend and a client that can ask the user (elicitation), or --spend-without-confirmation.\n' +
          `HTTP clients send "Authorization: Bearer TOKEN" (the token printed at start, or --token-file / ${TOKEN_ENV}).`,
      )
      .action(action<[], McpOptions>(runMcp));
  },
};

/** `--http`'s bearer token: --token-file > TRX_RENT_MCP_TOKEN > generated by the server (undefined). */
function bearerToken(ctx: Context, opts: McpOptions): { value: string; from: string } | undefined {
  const check = (value: string, from: string) => {
    if (value.length < MIN_TOKEN_LENGTH || /\s/.test(value))
      throw new UsageError(
        `the bearer token from ${from} must be at least ${MIN_TOKEN_LENGTH} characters without spaces`,
        'e.g. openssl rand -hex 32 > token && chmod 600 token',
      );
    return { value, from };
  };
  if (opts.tokenFile !== undefined) {
    if (opts.tokenFile === '-') throw new UsageError('--token-file - is not available: pass a file', 'e.g. --token-file ~/.config/trx-rent/mcp-token');
    return check(readSecretFile(opts.tokenFile, '--token-file', (m) => ctx.out.warn(m)).value, `--token-file ${opts.tokenFile}`);
  }
  const env = ctx.env[TOKEN_ENV]?.trim();
  if (env) return check(env, TOKEN_ENV);
  return undefined;
}

function isNodeStream(value: unknown): boolean {
  return typeof (value as { on?: unknown })?.on === 'function';
}

async function runMcp(ctx: Context, { opts }: { opts: McpOptions }) {
  if (opts.saveLimits) return saveLimits(ctx, opts);
  if (opts.keyFile === '-') throw new UsageError('--key-file - is not available here: stdin carries the MCP protocol', 'pass --key-file FILE');
  const port = opts.http === undefined ? undefined : parseInteger(opts.http, '--http', { max: 65_535 });
  if (opts.spendWithoutConfirmation && opts.requireConfirmation)
    throw new UsageError('--spend-without-confirmation and --require-confirmation contradict each other', 'pass one of them');
  const httpOnly = (['tokenFile', 'idleTimeout', 'maxSessions'] as const).filter((k) => opts[k] !== undefined);
  if (port === undefined && httpOnly.length)
    throw new UsageError(`--${httpOnly[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to --http only`, 'add --http PORT');
  const idleTimeoutMs = opts.idleTimeout === undefined ? undefined : parseInteger(opts.idleTimeout, '--idle-timeout', { min: 1, max: 7 * 24 * 3600 }) * 1000;
  const maxSessions = opts.maxSessions === undefined ? undefined : parseInteger(opts.maxSessions, '--max-sessions', { min: 1, max: 10_000 });
  const token = port === undefined ? undefined : bearerToken(ctx, opts);
  const mock = Boolean(ctx.opts.mock);
  if (opts.allowSpend) ctx.config.markSpending();
  const settings = await ctx.config.settings(true);
  if (!settings.baseUrl) {
    throw new UsageError('No API base URL', 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock', 'CONFIGURATION_ERROR');
  }
  const baseUrl = settings.baseUrl.value;
  const limits = await limitsFor(ctx, opts);
  const { resolveLimits } = await import('../../mcp/limits.js');
  resolveLimits(limits); // a malformed cap fails here, before any client connects

  const keys = await ctx.config.resolver.x402Keys({ keyFile: opts.keyFile }, () => Promise.reject(new UsageError('stdin carries the MCP protocol')));
  let wallet: { tron?: string | undefined; evm?: string | undefined } | undefined = keys ? { tron: keys.tron?.value, evm: keys.evm?.value } : undefined;
  let walletNote = keys
    ? `from ${[...new Set([keys.tron, keys.evm].filter((k) => k !== undefined).map((k) => describeSource(k!.source)))].join(', ')}`
    : 'none (x402 tools answer NO_WALLET)';
  if (!wallet && mock) {
    wallet = { tron: randomBytes(32).toString('hex') };
    walletNote = 'a throwaway TRON key (the mock accepts any payer)';
  }

  const log = (line: string) => void ctx.runtime.stderr.write(`${line}\n`);
  const store = storeSetting(ctx, opts.store);
  const storeWhere = store && (await import('../../store/postgres-url.js')).parsePostgresUrl(store.url).where;
  // The same node setting as ensure and send (flag > environment > profile > the mock's own).
  const tronNode = await ctx.chain.tronNode(opts.tronNode, await ctx.clients.clientFor(baseUrl, undefined, { maxRetries: 0 }));
  const options = {
    baseUrl,
    apiKey: settings.apiKey?.value,
    wallet,
    ...(opts.sweepMnemonicFile
      ? { sweepMnemonic: (await import('../settings.js')).readSecretFile(opts.sweepMnemonicFile, '--sweep-mnemonic-file', log).value }
      : {}),
    ...(tronNode.url ? { tronFullNode: tronNode.url } : {}),
    ...(tronNode.apiKey ? { tronNodeApiKey: tronNode.apiKey } : {}),
    ...(mock || tronNode.source.kind === 'running-mock' || tronNode.source.kind === 'reference-mock' ? { gasfreeRelayer: `${baseUrl}/__mock/gasfree` } : {}),
    allowSpend: Boolean(opts.allowSpend),
    spendWithoutConfirmation: Boolean(opts.spendWithoutConfirmation),
    limits,
    log,
    fetch: ctx.fetch,
    version: ctx.version,
    userAgent: `trx-rent-mcp/${ctx.version}`,
    stateDir: join(ctx.runtime.configDir || (await import('../config.js')).defaultConfigDir(), 'mcp'),
    ...(store ? { store: store.url } : {}),
  };
  const transports = await import('../../mcp/transports.js');
  const where = mock ? `the embedded mock at ${baseUrl}` : `${baseUrl} (${describeSource(settings.baseUrl.source)})`;
  // A profile key withheld because the base URL points at another origin is named, with the
  // fix, so "no API key" is not a mystery (the same text a command that needs a key gives).
  const withheld = !settings.apiKey && settings.withheldKey ? missingKeyProblem(settings) : undefined;
  const key = settings.apiKey
    ? `API key from ${describeSource(settings.apiKey.source)}`
    : `no API key (only public tools work)${withheld ? `: ${withheld.message}; ${withheld.hint}` : ''}`;
  const mode = !opts.allowSpend
    ? 'read-only (start with --allow-spend to let tools spend)'
    : `spending allowed within the caps (shared by all sessions${storeWhere ? `, and by every server on the store ${storeWhere}` : ''})${opts.spendWithoutConfirmation ? ', also when the client cannot ask the user (--spend-without-confirmation)' : '; each spend confirmed by the user'}`;
  let served: { closed: Promise<void>; close(): Promise<void> };
  if (port !== undefined) {
    const http = await transports.serveHttp(options, { port, host: '127.0.0.1', token: token?.value, idleTimeoutMs, maxSessions });
    served = http;
    log(
      `trx-rent mcp: listening on ${http.url} (streamable HTTP; at most ${maxSessions ?? DEFAULT_MAX_SESSIONS} sessions, closed after ${(idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) / 1000} s idle)`,
    );
    // Shown once, here: clients send it as "Authorization: Bearer …".
    if (http.generatedToken) log(`trx-rent mcp: bearer token (shown once; clients send "Authorization: Bearer <token>"): ${http.token}`);
    else log(`trx-rent mcp: bearer token from ${token!.from}`);
  } else {
    const { stdin, stdout } = ctx.runtime;
    if (!isNodeStream(stdin) || !isNodeStream(stdout)) throw new UsageError('the stdio server needs the process streams');
    served = await transports.serveStdio(options, { stdin: stdin as unknown as Readable, stdout: stdout as unknown as Writable });
  }
  log(
    `trx-rent mcp: on ${where}; ${key}; TRON node ${tronNode.url ?? 'https://api.trongrid.io'} (${describeSource(tronNode.source)}); x402 wallet ${walletNote}; ${mode}`,
  );
  const signal = await Promise.race([served.closed.then(() => undefined), ctx.untilSignal()]);
  if (signal) log(`trx-rent mcp: stopping (${signal})`);
  await served.close();
}

export default command;
