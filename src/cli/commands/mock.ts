import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { renderPairs } from '../output.js';
import { parseInteger } from '../parse.js';
import { UsageError } from '../errors.js';
import type { CommandModule } from '../types.js';

/** 127.0.0.0/8, ::1 and localhost: the hosts the mock may bind without a warning. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
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
      .option('--x402-version <n>', 'wire version of the x402 challenges: 2 (header + body, default) or 1 (body only, for v1 clients)', '2')
      .addHelpText(
        'after',
        '\nThen, in another terminal:\n  export TRX_RENT_BASE_URL=http://127.0.0.1:8787 TRX_RENT_API_KEY=<the key printed>\n  trx-rent prices\n  trx-rent buy 65000 --to T… --duration 1h --wait',
      )
      .action(action(runMock));
  },
};

async function runMock(ctx: Context, { opts }: { args: []; opts: { port: string; host: string; envelope?: boolean; seed?: string; chaos?: string; rateLimits: boolean; x402Version: string; webhooksAnywhere?: boolean; cors?: boolean }; cmd: Command }): Promise<number | void> {
  const port = parseInteger(opts.port, '--port', { max: 65_535 });
  const seed = opts.seed === undefined ? undefined : parseInteger(opts.seed, '--seed');
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
  const server = await ctx.startMock({
    ...(opts.x402Version === '1' ? { x402: { version: 1 as const } } : {}),
    ...(opts.webhooksAnywhere ? { webhookTargets: 'any' as const } : {}),
    port,
    host: opts.host,
    ...(opts.envelope ? { envelope: true } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(chaos ? { chaos } : {}),
    ...(opts.rateLimits === false ? { rateLimits: false as const } : {}),
    ...(opts.cors ? { cors: true } : {}),
  });
  if (!isLoopback(opts.host)) {
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
        ['options', [opts.envelope ? 'envelope' : 'bare bodies', opts.rateLimits === false ? 'no rate limits' : 'rate limits on', chaos ? `chaos ${chaos.rate}` : 'no chaos'].join(', ')],
      ],
      s,
    )}\n${s.dim(`export TRX_RENT_BASE_URL=${server.url} TRX_RENT_API_KEY=${server.apiKey}`)}\n${s.dim('Press Ctrl+C to stop.')}`;
  });
  const signal = await ctx.untilSignal();
  ctx.out.info(`Stopping (${signal}).`);
}

export default command;
