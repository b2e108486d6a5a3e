/**
 * `trx-rent status`, like `gh auth status`: where every setting comes from and whether it works.
 * Profile, base URL and API key with their sources (the key never shown), whether the API answers
 * and accepts the key (read-only calls: GET /balance, GET /orders?limit=1), the permissions those
 * calls prove, the balance, the clock skew from the server's Date header, the x402 wallet's
 * source, and the mock's control state (GET /__mock/state) when the API is the reference mock.
 *
 * It always prints its report; the exit code says what it found: 0 all good, 3 no key or a
 * rejected one, 1 the API did not answer, 2 no base URL.
 */
import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { EXIT } from '../errors.js';
import { reportFor } from '../error-report.js';
import { trxAndSun, trxOf } from '../format.js';
import { renderPairs } from '../tables.js';
import { type Connection, type Source, describeSource, missingKeyProblem } from '../settings.js';
import type { CommandModule } from '../types.js';

/** The permissions read-only calls can prove; the others cannot be checked without side effects. */
type Probe = boolean | null;

interface StatusReport {
  profile: { name: string; source: string; saved: boolean | null };
  base_url: { value: string; source: string } | null;
  api_key: { source: string } | null;
  reachable: boolean | null;
  latency_ms: number | null;
  key_works: boolean | null;
  permissions: { view_balance: Probe; view_orders: Probe; create_orders: null; broadcast: null };
  balance: { trx: number; usdt: number; trx_locked: number } | null;
  server_time: string | null;
  /** Server clock minus ours, in ms (from the Date header: ±1 s resolution). */
  clock_skew_ms: number | null;
  x402_wallet: { tron: string | null; evm: string | null };
  mock: Record<string, unknown> | null;
  /** The TRON node ensure, send and mcp would read, and where that setting comes from. */
  tron_node: { url: string; source: string } | null;
  problems: Array<{ code: string; message: string; hint?: string }>;
}

function sourceText(source: Source): string {
  if (source.kind === 'profile') return `profile ${source.profile}`;
  if (source.kind === 'default') return 'no current profile set';
  return describeSource(source);
}

/** Skew between the server's Date header and the middle of our request (ms), or null. */
function skew(response: Response | undefined, sentAt: number, receivedAt: number): { at: string; ms: number } | null {
  const header = response?.headers.get('date');
  const server = header ? Date.parse(header) : Number.NaN;
  if (!Number.isFinite(server)) return null;
  // Date has whole seconds: the server's clock is somewhere in [server, server + 1 s).
  return { at: new Date(server).toISOString(), ms: server + 500 - Math.round((sentAt + receivedAt) / 2) };
}

async function probe(ctx: Context): Promise<{ report: StatusReport; code: number }> {
  const resolver = ctx.config.resolver;
  const report: StatusReport = {
    profile: { name: 'default', source: 'default', saved: null },
    base_url: null,
    api_key: null,
    reachable: null,
    latency_ms: null,
    key_works: null,
    permissions: { view_balance: null, view_orders: null, create_orders: null, broadcast: null },
    balance: null,
    server_time: null,
    clock_skew_ms: null,
    x402_wallet: { tron: null, evm: null },
    mock: null,
    tron_node: null,
    problems: [],
  };
  const problem = async (error: unknown) => {
    const r = await reportFor(error, {
      baseUrl: report.base_url?.value,
      baseUrlSource: connection?.baseUrl?.source,
      apiKeySource: connection?.apiKey?.source,
      command: 'status',
    });
    report.problems.push({ code: r.code, message: r.message, ...(r.hint ? { hint: r.hint } : {}) });
    return r;
  };

  const profile = await resolver.profileName();
  report.profile = { name: profile.value, source: sourceText(profile.source), saved: null };
  let connection: Connection | undefined;
  try {
    connection = await ctx.config.settings(true);
    if (!ctx.opts.mock) report.profile.saved = (await ctx.config.profile()).settings !== undefined;
  } catch (error) {
    await problem(error);
    return { report, code: EXIT.USAGE };
  }
  try {
    const wallet = await resolver.x402Keys({}, async () => '');
    report.x402_wallet = { tron: wallet?.tron ? describeSource(wallet.tron.source) : null, evm: wallet?.evm ? describeSource(wallet.evm.source) : null };
  } catch (error) {
    await problem(error);
  }
  if (connection.baseUrl) report.base_url = { value: connection.baseUrl.value, source: sourceText(connection.baseUrl.source) };
  if (connection.apiKey) report.api_key = { source: sourceText(connection.apiKey.source) };
  if (!connection.baseUrl) {
    report.problems.push({
      code: 'CONFIGURATION_ERROR',
      message: 'No API base URL',
      hint: 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock',
    });
    return { report, code: EXIT.USAGE };
  }

  const client = await ctx.clients.clientFor(connection.baseUrl.value, connection.apiKey?.value, { maxRetries: 0 });
  const quick = { maxRetries: 0, timeoutMs: 10_000 };
  let code: number = EXIT.OK;

  // The mock's control state: a public helper route a real API does not have (404 there).
  const { unknown: anything } = await import('zod');
  const mockState = client.http
    .request({ method: 'GET', path: '/__mock/state', schema: anything(), auth: false, options: quick })
    .then((r) => (r.data && typeof r.data === 'object' && 'seed' in r.data ? (r.data as Record<string, unknown>) : null))
    .catch(() => null);

  // Reachability and the clock: the public price list (no key needed).
  let sentAt = Date.now();
  try {
    const { response } = await (await client.get('prices')).list(quick).withResponse();
    const receivedAt = Date.now();
    report.reachable = true;
    report.latency_ms = receivedAt - sentAt;
    const clock = skew(response, sentAt, receivedAt);
    if (clock) {
      report.server_time = clock.at;
      report.clock_skew_ms = clock.ms;
    }
  } catch (error) {
    const r = await problem(error);
    if (r.code === 'CONNECTION_ERROR' || r.code === 'TIMEOUT') {
      report.reachable = false;
      report.mock = await mockState;
      return { report, code: EXIT.API };
    }
    report.reachable = true; // it answered, with an error
  }

  if (!connection.apiKey) {
    report.problems.push({ code: 'UNAUTHORIZED', ...missingKeyProblem(connection) });
    code = EXIT.AUTH;
  } else {
    sentAt = Date.now();
    try {
      const { data } = await (await client.get('balance')).get(quick).withResponse();
      report.key_works = true;
      report.permissions.view_balance = true;
      report.balance = { trx: Number(data.trx), usdt: Number(data.usdt), trx_locked: Number(data.trx_locked) };
    } catch (error) {
      const r = await problem(error);
      if (r.code === 'FORBIDDEN') {
        report.key_works = true;
        report.permissions.view_balance = false;
        report.problems.pop(); // a key without view_balance works; that is what the permissions say
      } else {
        if (r.code === 'UNAUTHORIZED') report.key_works = false;
        code = r.exit_code;
      }
    }
    if (report.key_works) {
      try {
        await (await client.get('orders')).list({ limit: 1 }, quick);
        report.permissions.view_orders = true;
      } catch (error) {
        if ((error as { code?: unknown }).code === 'FORBIDDEN') report.permissions.view_orders = false;
        else await problem(error);
      }
    }
  }
  report.mock = await mockState;
  try {
    const node = await ctx.chain.tronNode(undefined, client, false);
    report.tron_node = {
      url: node.url ?? 'https://api.trongrid.io',
      source: node.source.kind === 'default' ? 'default (TronGrid)' : describeSource(node.source),
    };
  } catch (error) {
    await problem(error);
  }
  return { report, code };
}

const yesNo = (p: Probe, s: Context['out']['s']) => (p === true ? s.green('✓') : p === false ? s.red('✗') : s.dim('?'));

function render(r: StatusReport, ctx: Context): string {
  const s = ctx.out.s;
  const pairs: Array<[string, string]> = [];
  // `profile default (profile default)` said the name twice: the source is only worth showing when it is not the profile itself.
  const profileSource = r.profile.source === `profile ${r.profile.name}` ? 'the current profile' : r.profile.source;
  pairs.push(['profile', `${s.bold(r.profile.name)} ${s.dim(`(${profileSource}${r.profile.saved === false ? '; not saved: run `trx-rent login`' : ''})`)}`]);
  pairs.push(['API', r.base_url ? `${r.base_url.value} ${s.dim(`(from ${r.base_url.source})`)}` : s.red('not set')]);
  if (r.base_url) {
    pairs.push([
      'reachable',
      r.reachable === true
        ? `${s.green('✓')} ${r.latency_ms !== null ? s.dim(`${r.latency_ms} ms`) : ''}`
        : r.reachable === false
          ? s.red('✗ no answer')
          : s.dim('?'),
    ]);
  }
  const key = r.api_key ? `from ${r.api_key.source}` : s.red('none');
  const works = r.key_works === true ? s.green('works') : r.key_works === false ? s.red('rejected') : '';
  pairs.push(['API key', `${key}${works ? `: ${works}` : ''}`]);
  if (r.key_works) {
    const p = r.permissions;
    pairs.push([
      'permissions',
      `view_balance ${yesNo(p.view_balance, s)}  view_orders ${yesNo(p.view_orders, s)}  create_orders ${yesNo(null, s)}  broadcast ${yesNo(null, s)}  ${s.dim('(? = not checkable without side effects)')}`,
    ]);
  }
  if (r.balance)
    pairs.push([
      'balance',
      `${trxAndSun(r.balance.trx)}, ${trxOf(r.balance.usdt)} USDT${r.balance.trx_locked ? `, ${trxOf(r.balance.trx_locked)} TRX locked` : ''}`,
    ]);
  if (r.clock_skew_ms !== null) {
    const sec = Math.round(r.clock_skew_ms / 1000);
    const off = `this machine's clock is ${Math.abs(sec)} s ${sec > 0 ? 'behind' : 'ahead of'} the server`;
    const text =
      Math.abs(sec) <= 1
        ? s.green('in sync with the server')
        : Math.abs(sec) > 30
          ? s.yellow(`${off}: webhook timestamps and x402 validity windows may be refused`)
          : off;
    pairs.push(['clock', `${text} ${s.dim(`(server ${r.server_time}; Date header, ±1 s)`)}`]);
  }
  const wallet = [r.x402_wallet.tron ? `TRON from ${r.x402_wallet.tron}` : '', r.x402_wallet.evm ? `Base from ${r.x402_wallet.evm}` : '']
    .filter(Boolean)
    .join(', ');
  pairs.push(['x402 wallet', wallet || s.dim('none (TRX_RENT_X402_TRON_KEY / TRX_RENT_X402_EVM_KEY or --key-file)')]);
  if (r.tron_node) pairs.push(['TRON node', `${r.tron_node.url} ${s.dim(`(${r.tron_node.source})`)}`]);
  if (r.mock) {
    const m = r.mock;
    pairs.push([
      'mock',
      `${s.yellow('the reference mock')}: clock ${String(m.clock)} at ${String(m.now)}, seed ${String(m.seed)}, ${String(m.accounts)} account(s), ${String(m.pending_tasks)} pending task(s)`,
    ]);
  }
  let text = renderPairs(pairs, s);
  for (const p of r.problems) text += `${s.red(`✗ ${p.code}`)}: ${p.message}${p.hint ? s.dim(` (hint: ${p.hint})`) : ''}\n`;
  return text;
}

const command: CommandModule = {
  description:
    'Where you stand, like `gh auth status`: the profile, the base URL and the API key with where each ' +
    'comes from (the key is never shown), whether the API answers and accepts the key, the permissions ' +
    'read-only calls prove, the balance, the clock skew with the server, the x402 wallet, and the ' +
    "mock's control state when pointed at the mock. Exit 0 when all is well, 3 without a working key, " +
    '1 when the API does not answer, 2 without a base URL; the report is printed either way.',
  register(cmd: Command) {
    cmd.action(
      action(async (ctx) => {
        const { report, code } = await probe(ctx);
        ctx.out.result(report, () => render(report, ctx));
        return code;
      }),
    );
  },
};

export default command;
