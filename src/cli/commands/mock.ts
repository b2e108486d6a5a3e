import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { isLoopbackHost } from '../../internal/net.js';
import { renderPairs } from '../tables.js';
import { parseInteger } from '../parse.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import type { CommandModule } from '../types.js';
import { registerMockAccounts } from './mock-accounts.js';

/** Start the mock; a state file that cannot be read or written is a usage error naming it. */
async function startOrExplain<T>(stateFile: string | undefined, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    // Not listening (a port in use) is no fault of the state file.
    if (stateFile && error instanceof Error && !(error instanceof CliError) && (error as { syscall?: unknown }).syscall !== 'listen') {
      throw new CliError('STATE_FILE', `--state ${stateFile}: ${error.message}`, { exitCode: EXIT.USAGE });
    }
    throw error;
  }
}

const command: CommandModule = {
  description:
    'Run the reference mock server (stateful: balances, orders that fill, webhooks, rate limits) ' +
    "until Ctrl+C / SIGTERM. Prints the URL, the demo account's API key (the same for the same --seed), JWT and deposit memo, " +
    'and the exports to use it (the TRON node is the mock itself). Other terminals on this machine find it with no setting. ' +
    '`--wallet FILE` writes a funded sender key; `trx-rent mock fund ADDRESS` funds any address; `trx-rent mock accounts` lists ten funded test accounts and their keys.',
  register(cmd: Command) {
    cmd
      .option('--port <port>', `port (0 = any free port; default ${DEFAULT_PORT}, or a free one when ${DEFAULT_PORT} is taken, said on stderr)`)
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--envelope', 'wrap success bodies in { data } like the live service')
      .option('--seed <n>', 'seed for ids, keys, prices and chaos (same seed, same run)')
      .option('--chaos <rate>', 'inject faults (429, 500, 503, slow, dropped) into this share of requests, 0-1')
      .option('--no-rate-limits', "turn off the spec's per-IP rate limits")
      .option('--webhooks-anywhere', 'deliver webhooks to any host (default: loopback hosts only, so nothing leaves this machine)')
      .option('--cors', 'answer browsers (CORS preflights, Access-Control-Allow-Origin: *); off so a web page cannot drive the demo account')
      .option(
        '--retain <n>',
        'history kept: the newest N orders, webhook deliveries, idempotency keys and chain transactions (default 10000 orders/deliveries, 50000 keys/transactions)',
      )
      .option('--state <file>', 'keep the simulated world in FILE: restored at start if it exists, saved (atomically) as it changes and on exit')
      .option('--quiet', 'no request log (by default one line per request on stderr: method, path, status, ms)')
      .option(
        '--wallet <file>',
        `write a sender's private key to FILE (mode 0600; kept if FILE already holds one) and fund its address on the simulated chain with ${WALLET_TRX} TRX (activating it) and ${WALLET_USDT} USDT`,
      )
      .option('--x402-version <n>', 'wire version of the x402 challenges: 2 (header + body, default) or 1 (body only, for v1 clients)', '2')
      .addHelpText(
        'after',
        '\nThen, in another terminal (no setting needed on this machine; elsewhere use the exports printed):\n  trx-rent prices\n  trx-rent buy 65000 --to T… --duration 1h --wait\n' +
          '  trx-rent mock --wallet key.txt   # and then: trx-rent send usdt --to T… --amount 1 --key-file key.txt --yes\n  trx-rent mock fund T… --trx 100 --usdt 50',
      )
      .action(action<[], MockOptions>(runMock));
    cmd
      .command('fund')
      .description("Fund an address on a running mock's simulated chain: TRX first (which activates it, as on TRON), then USDT")
      .argument('<address>', 'the TRON address to fund')
      .option('--trx <n>', 'TRX to give it', '0')
      .option('--usdt <n>', 'USDT to give it', '0')
      .addHelpText(
        'after',
        '\nThe mock is the base URL (--base-url, TRX_RENT_BASE_URL, the profile) or the `trx-rent mock` running on this machine.\n\nExample:\n  trx-rent mock fund TXYZ… --trx 100 --usdt 50',
      )
      .action(action<[string], FundOptions>(runFund));
    registerMockAccounts(cmd);
  },
};

/** What `--wallet` funds a new sender with: TRX (activates it, pays bandwidth) and USDT to send. */
const WALLET_TRX = '1000';
const WALLET_USDT = '1000';

interface FundOptions {
  trx: string;
  usdt: string;
}

/** The port `mock` listens on when `--port` is not given and the port is free. */
const DEFAULT_PORT = 8787;

interface MockOptions {
  wallet?: string;
  port?: string;
  host: string;
  envelope?: boolean;
  seed?: string;
  chaos?: string;
  rateLimits: boolean;
  x402Version: string;
  webhooksAnywhere?: boolean;
  cors?: boolean;
  retain?: string;
  state?: string;
  quiet?: boolean;
}

/** POST /__mock/fund on the mock at `baseUrl` (a control route: no key). */
async function fund(
  ctx: Context,
  baseUrl: string,
  body: { address: string; trx?: string; usdt?: string },
): Promise<{ address: string; trx_sun: number; usdt: string }> {
  const client = await ctx.clients.clientFor(baseUrl, undefined, { maxRetries: 0 });
  const { unknown: anything } = await import('zod');
  const { data } = await client.http.request({ method: 'POST', path: '/__mock/fund', body, schema: anything(), auth: false });
  return data as { address: string; trx_sun: number; usdt: string };
}

/** `mock fund ADDRESS --trx N --usdt N`: on the mock the settings point at (or the one running here). */
async function runFund(ctx: Context, { args: [addressArg], opts }: { args: [string]; opts: FundOptions }) {
  const { parseAddress } = await import('../parse.js');
  const address = await parseAddress(addressArg, 'ADDRESS');
  const amount = (value: string, flag: string) => {
    if (!/^\d+(\.\d{1,6})?$/.test(value.trim())) throw new UsageError(`${flag} must be a decimal amount with up to 6 decimals, got ${JSON.stringify(value)}`);
    return value.trim();
  };
  const trx = amount(opts.trx, '--trx');
  const usdt = amount(opts.usdt, '--usdt');
  if (Number(trx) === 0 && Number(usdt) === 0) throw new UsageError('nothing to fund', 'pass --trx N, --usdt N or both', 'MISSING_ARGUMENT');
  const { baseUrl } = await ctx.config.settings(false);
  const url = baseUrl?.value ?? 'http://127.0.0.1:8787';
  const result = await fund(ctx, url, { address, ...(Number(trx) > 0 ? { trx } : {}), ...(Number(usdt) > 0 ? { usdt } : {}) });
  ctx.out.result(
    result,
    () => `${ctx.out.s.green('✓')} ${result.address} on the mock at ${url} now holds ${result.trx_sun / 1_000_000} TRX and ${result.usdt} USDT\n`,
  );
}

/**
 * Open `file` for `flags` without following a symlink (O_NOFOLLOW: a link, dangling or not, is
 * refused; O_EXCL on create: nothing that exists is written through). Undefined when it does not exist.
 */
function openNoFollow(file: string, flags: number, mode?: number): number | undefined {
  try {
    return openSync(file, flags | (constants.O_NOFOLLOW ?? 0), mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EEXIST')
      throw new UsageError(`--wallet ${file} is a symbolic link (or appeared meanwhile): give the key file itself`);
    throw new UsageError(`--wallet ${file}: ${(error as Error).message}`);
  }
}

/** The key in FILE (read only from a regular file, never through a symlink), or undefined when FILE does not exist. */
function readWalletKey(file: string): string | undefined {
  const fd = openNoFollow(file, constants.O_RDONLY);
  if (fd === undefined) return undefined;
  try {
    if (!fstatSync(fd).isFile()) throw new UsageError(`--wallet ${file} is not a regular file`);
    fchmodSync(fd, 0o600);
    return readFileSync(fd, 'utf8').trim();
  } finally {
    closeSync(fd);
  }
}

/** `--wallet FILE`: the key in FILE (a new one written 0600 when it holds none), funded on the mock. */
async function wallet(ctx: Context, file: string, baseUrl: string): Promise<{ address: string; key_file: string; trx_sun: number; usdt: string }> {
  const { privateKeyToTronAddress } = await import('../../protocol/tron-transaction.js');
  const { isHexKey } = await import('../settings.js');
  const found = readWalletKey(file);
  let key = found ?? '';
  if (key && !isHexKey(key)) throw new UsageError(`--wallet ${file} exists and does not hold a 64-hex private key; give another file`);
  if (!key) {
    key = randomBytes(32).toString('hex');
    // A new file is created exclusively; an empty one is written in place. Never through a symlink.
    const fd = openNoFollow(file, constants.O_WRONLY | (found === undefined ? constants.O_CREAT | constants.O_EXCL : constants.O_TRUNC), 0o600);
    if (fd === undefined) throw new UsageError(`--wallet ${file} disappeared while it was written`);
    try {
      fchmodSync(fd, 0o600);
      writeFileSync(fd, `${key}\n`);
    } finally {
      closeSync(fd);
    }
  }
  const address = privateKeyToTronAddress(key);
  const funded = await fund(ctx, baseUrl, { address, trx: WALLET_TRX, usdt: WALLET_USDT });
  return { address, key_file: file, trx_sun: funded.trx_sun, usdt: funded.usdt };
}

async function runMock(ctx: Context, { opts }: { opts: MockOptions }) {
  const port = opts.port === undefined ? undefined : parseInteger(opts.port, '--port', { max: 65_535 });
  const seed = opts.seed === undefined ? undefined : parseInteger(opts.seed, '--seed');
  const retain = opts.retain === undefined ? undefined : parseInteger(opts.retain, '--retain', { min: 1 });
  let chaos: { rate: number } | undefined;
  if (opts.chaos !== undefined) {
    const rate = Number(opts.chaos);
    if (!/^\d*\.?\d+$/.test(opts.chaos.trim()) || !(rate >= 0 && rate <= 1)) {
      throw new UsageError(`--chaos must be a rate between 0 and 1, got ${JSON.stringify(opts.chaos)}`);
    }
    chaos = { rate };
  }
  if (opts.x402Version !== '1' && opts.x402Version !== '2') {
    throw new UsageError(`--x402-version must be 1 or 2, got ${JSON.stringify(opts.x402Version)}`);
  }
  const out = ctx.out;
  const log = opts.quiet
    ? undefined
    : (entry: { method: string; path: string; status: number; ms: number }) => {
        const ms = Math.round(entry.ms * 10) / 10;
        if (out.json) out.diagJson({ type: 'request', at: new Date().toISOString(), method: entry.method, path: entry.path, status: entry.status, ms });
        else out.diag(`${new Date().toISOString()}  ${entry.method} ${entry.path} ${entry.status || 'dropped'} ${ms}ms`);
      };
  const start = (listen: number) =>
    startOrExplain(opts.state, () =>
      ctx.mocks.start({
        ...(opts.state ? { stateFile: opts.state } : {}),
        ...(log ? { onRequest: log } : {}),
        ...(opts.x402Version === '1' ? { x402: { version: 1 as const } } : {}),
        ...(opts.webhooksAnywhere ? { webhookTargets: 'any' as const } : {}),
        port: listen,
        host: opts.host,
        ...(opts.envelope ? { envelope: true } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(retain !== undefined ? { retain } : {}),
        ...(chaos ? { chaos } : {}),
        ...(opts.rateLimits === false ? { rateLimits: false as const } : {}),
        ...(opts.cors ? { cors: true } : {}),
      }),
    );
  // A port in use: the default gives way to a free one (said, with the URL, below); a port asked for is an error.
  const server = await start(port ?? DEFAULT_PORT).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    if (port !== undefined)
      throw new UsageError(
        `--port ${port}: the port is in use on ${opts.host}`,
        'stop what holds it (another trx-rent mock?), or pass --port 0 for any free port',
      );
    return start(0).then((started) => {
      ctx.out.warn(`port ${DEFAULT_PORT} is taken (another mock?): listening on ${started.url} instead`);
      return started;
    });
  });
  if (!isLoopbackHost(opts.host)) {
    ctx.out.warn(
      `listening on ${opts.host}, beyond this machine: anyone who can reach it can use the demo API key ` +
        '(printed below, every permission) and the /__mock/ control routes (clock, balances, accounts). Use --host 127.0.0.1 unless you mean it.',
    );
  }
  // Other terminals on this machine find a loopback mock with no setting while it is the only one (see running-mock.ts).
  if (isLoopbackHost(opts.host)) {
    const { recordRunningMock } = await import('../running-mock.js');
    ctx.onDispose(recordRunningMock(ctx.runtime.configDir, { url: server.url, apiKey: server.apiKey }));
  }
  const sender = opts.wallet ? await wallet(ctx, opts.wallet, server.url) : undefined;
  // memo stays last: scripts wait for it to know the JSON is whole.
  const info = { url: server.url, api_key: server.apiKey, jwt: server.jwt, tron_node: server.url, ...(sender ? { wallet: sender } : {}), memo: server.memo };
  const exports = `export TRX_RENT_BASE_URL=${server.url} TRX_RENT_API_KEY=${server.apiKey} TRX_RENT_TRON_NODE=${server.url}`;
  ctx.out.result(info, () => {
    const s = ctx.out.s;
    return `${s.green('trx-rent mock')} listening on ${s.bold(server.url)}\n${renderPairs(
      [
        ['API key', server.apiKey],
        ['JWT', server.jwt],
        ['deposit memo', server.memo],
        ['TRON node', `${server.url} (the mock's simulated chain)`],
        ['accounts', '10 funded test accounts (10,000 TRX and USDT each): `trx-rent mock accounts`'],
        ...(sender
          ? ([['wallet', `${sender.address}: ${sender.trx_sun / 1_000_000} TRX, ${sender.usdt} USDT; key in ${sender.key_file}`]] as Array<[string, string]>)
          : []),
        ...(opts.state
          ? ([['state', `${opts.state} (${server.state.epoch > 0 ? `restored: ${server.state.orders.size} orders` : 'new'})`]] as Array<[string, string]>)
          : []),
        [
          'options',
          [
            opts.envelope ? 'envelope' : 'bare bodies',
            opts.rateLimits === false ? 'no rate limits' : 'rate limits on',
            chaos ? `chaos ${chaos.rate}` : 'no chaos',
          ].join(', '),
        ],
      ],
      s,
    )}\n${s.dim(exports)}\n${s.dim('Other terminals on this machine use it with no setting while it is the only mock running. Press Ctrl+C to stop.')}`;
  });
  const signal = await ctx.untilSignal();
  ctx.out.info(`Stopping (${signal}).`);
}

export default command;
