import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { isLoopbackHost } from '../../internal/net.js';
import { renderPairs } from '../output.js';
import { parseInteger } from '../parse.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import type { CommandModule } from '../types.js';


/** Start the mock; a state file that cannot be read or written is a usage error naming it. */
async function startOrExplain<T>(stateFile: string | undefined, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (stateFile && error instanceof Error && !(error instanceof CliError)) {
      throw new CliError('STATE_FILE', `--state ${stateFile}: ${error.message}`, { exitCode: EXIT.USAGE });
    }
    throw error;
  }
}

const command: CommandModule = {
  description:
    'Run the reference mock server (stateful: balances, orders that fill, webhooks, rate limits) ' +
    'until Ctrl+C / SIGTERM. Prints the URL, the demo account\'s API key, JWT and deposit memo.',
  register(cmd: Command) {
    cmd
      .option('--port <port>', 'port (0 = any free port)', '8787')
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--envelope', 'wrap success bodies in { data } like the live service')
      .option('--seed <n>', 'seed for ids, keys, prices and chaos (same seed, same run)')
      .option('--chaos <rate>', 'inject faults (429, 500, 503, slow, dropped) into this share of requests, 0-1')
      .option('--no-rate-limits', "turn off the spec's per-IP rate limits")
      .option('--webhooks-anywhere', 'deliver webhooks to any host (default: loopback hosts only, so nothing leaves this machine)')
      .option('--cors', 'answer browsers (CORS preflights, Access-Control-Allow-Origin: *); off so a web page cannot drive the demo account')
      .option('--retain <n>', 'history kept: the newest N orders, webhook deliveries, idempotency keys and chain transactions (default 10000 orders/deliveries, 50000 keys/transactions)')
      .option('--state <file>', 'keep the simulated world in FILE: restored at start if it exists, saved (atomically) as it changes and on exit')
      .option('--quiet', 'no request log (by default one line per request on stderr: method, path, status, ms)')
      .option('--x402-version <n>', 'wire version of the x402 challenges: 2 (header + body, default) or 1 (body only, for v1 clients)', '2')
      .addHelpText(
        'after',
        '\nThen, in another terminal:\n  export TRX_RENT_BASE_URL=http://127.0.0.1:8787 TRX_RENT_API_KEY=<the key printed>\n  trx-rent prices\n  trx-rent buy 65000 --to T… --duration 1h --wait',
      )
      .action(action<[], MockOptions>(runMock));
  },
};

interface MockOptions {
  port: string;
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

async function runMock(ctx: Context, { opts }: { opts: MockOptions }) {
  const port = parseInteger(opts.port, '--port', { max: 65_535 });
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
  const server = await startOrExplain(opts.state, () => ctx.startMock({
    ...(opts.state ? { stateFile: opts.state } : {}),
    ...(log ? { onRequest: log } : {}),
    ...(opts.x402Version === '1' ? { x402: { version: 1 as const } } : {}),
    ...(opts.webhooksAnywhere ? { webhookTargets: 'any' as const } : {}),
    port,
    host: opts.host,
    ...(opts.envelope ? { envelope: true } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(retain !== undefined ? { retain } : {}),
    ...(chaos ? { chaos } : {}),
    ...(opts.rateLimits === false ? { rateLimits: false as const } : {}),
    ...(opts.cors ? { cors: true } : {}),
  }));
  if (!isLoopbackHost(opts.host)) {
    ctx.out.warn(
      `listening on ${opts.host}, beyond this machine: anyone who can reach it can use the demo API key ` +
        '(printed below, every permission) and the /__mock/ control routes (clock, balances, accounts). Use --host 127.0.0.1 unless you mean it.',
    );
  }
  const info = { url: server.url, api_key: server.apiKey, jwt: server.jwt, memo: server.memo };
  ctx.out.result(info, () => {
    const s = ctx.out.s;
    return `${s.green('trx-rent mock')} listening on ${s.bold(server.url)}\n${renderPairs(
                [
                  ['API key', server.apiKey],
                  ['JWT', server.jwt],
                  ['deposit memo', server.memo],
                  ...(opts.state ? ([['state', `${opts.state} (${server.state.epoch > 0 ? `restored: ${server.state.orders.size} orders` : 'new'})`]] as Array<[string, string]>) : []),
                  ['options', [opts.envelope ? 'envelope' : 'bare bodies', opts.rateLimits === false ? 'no rate limits' : 'rate limits on', chaos ? `chaos ${chaos.rate}` : 'no chaos'].join(', ')],
                ],
                s,
              )}\n${s.dim(`export TRX_RENT_BASE_URL=${server.url} TRX_RENT_API_KEY=${server.apiKey}`)}\n${s.dim('Press Ctrl+C to stop.')}`;
  });
  const signal = await ctx.untilSignal();
  ctx.out.info(`Stopping (${signal}).`);
}

export default command;
