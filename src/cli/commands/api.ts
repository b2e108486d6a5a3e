/**
 * `trx-rent api [METHOD] PATH`: an authenticated raw call, as `gh api` does, for the endpoints no
 * command covers. It goes through the SDK's request core (src/http/client.ts: the key, retries
 * with backoff and Retry-After, no redirects, a bounded body, the `{data}` envelope removed, the
 * error envelope to the same typed errors and exit codes as every command), or for `/x402/…`
 * routes through the x402 client (the price shown and confirmed before paying, the same wallet
 * and payment flags as `trx-rent x402`).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ENDPOINTS, ENDPOINT_LIST, findEndpoint } from '../../api/endpoints.js';
import { PaginationLimitError } from '../../errors/index.js';
import { pageOf, walkPages } from '../../internal/paginate.js';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { parseIdempotencyKey } from '../parse.js';
import type { CommandModule } from '../types.js';
import { type PaidOptions, paidClient, paidOptions, translate } from './x402/paid.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Paths under these first segments are sent as given; anything else is below /api/v1. */
const ROOTS = new Set(['api', 'x402', '__mock', 'wallet', 'walletsolidity', 'openapi.json']);
/** The routes that honour an Idempotency-Key, for the help (from the table). */
const IDEMPOTENT_ROUTES = ENDPOINT_LIST.filter((e) => e.idempotent)
  .map((e) => `${e.method} ${e.path}`)
  .join(' and ');
/** Most pages `--paginate` fetches. */
const MAX_PAGES = 1000;

interface ApiOptions extends PaidOptions {
  rawField: string[];
  field: string[];
  header: string[];
  input?: string;
  paginate?: boolean;
  include?: boolean;
  idempotencyKey?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `key=value` -> [key, value] (the value may hold `=`). */
function splitField(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes key=value, got ${JSON.stringify(text)}`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** A typed field value (`-F`): true, false, null, numbers, `@file` (its text), else the string. */
function typedValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value)) && Number.isSafeInteger(Math.trunc(Number(value)))) return Number(value);
  if (value.startsWith('@')) {
    try {
      return readFileSync(value.slice(1), 'utf8').replace(/\n$/, '');
    } catch (error) {
      throw new UsageError(`cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return value;
}

/**
 * The path below the base URL and its query: `orders` and `/orders` name the account API's list of orders (below `/api/v1`);
 * `/api/…`, `/x402/…`, `/__mock/…` stay as given; a full URL must be below the configured base
 * URL (the key never goes anywhere else).
 */
export function resolvePath(input: string, baseUrl: string): { path: string; query: Record<string, string> } {
  const base = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  let relative = input;
  if (/^[a-z][a-z0-9+.-]*:/i.test(input)) {
    if (input !== base && !input.startsWith(`${base}/`) && !input.startsWith(`${base}?`)) {
      throw new UsageError(
        `${new URL(input).origin} is not the configured API (${base})`,
        'give a path (/api/v1/…); the key is sent only to the configured base URL',
      );
    }
    relative = input.slice(base.length) || '/';
  }
  if (!relative.startsWith('/')) relative = `/${relative}`;
  const first = relative.split(/[/?#]/)[1] ?? '';
  const url = new URL(ROOTS.has(first) ? relative : `/api/v1${relative}`, 'http://path.invalid');
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

/** The status line and headers, as `gh api -i` prints them. */
function headerBlock(response: Response): string {
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText}`.trimEnd()];
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return `${lines.join('\n')}\n\n`;
}

const command: CommandModule = {
  description:
    "An authenticated raw call to any endpoint, like `gh api`: the key from your settings, the SDK's " +
    'retries and error handling, the answer as JSON (the `{data}` envelope removed). PATH is below ' +
    '/api/v1 unless it starts with /api/, /x402/ or /__mock/. Fields go in the query of a GET or ' +
    'DELETE and in the JSON body otherwise. /x402/… routes are paid like `trx-rent x402` commands.',
  register(cmd: Command) {
    paidOptions(
      cmd
        .usage('[METHOD] PATH [-f key=value] [-F key=value] [--input FILE|-] [--paginate] [-i]')
        .argument('<method-or-path>', `${METHODS.join(', ')} (default GET, or POST with fields), or the path`)
        .argument('[path]', `e.g. ${ENDPOINTS.listOrders.path}, orders/ID, ${ENDPOINTS.x402Network.path}`)
        .option('-f, --raw-field <key=value>', 'a string field (repeatable)', collect, [])
        .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers; @FILE reads a file (repeatable)', collect, [])
        .option('-H, --header <name:value>', 'a request header (repeatable)', collect, [])
        .option('--input <file>', 'the JSON body from a file, or - for stdin (fields then go in the query)')
        .option('--paginate', 'GET every page of a list endpoint ({items, total} pages by offset) and print one array')
        .option('-i, --include', 'print the status line and the response headers first')
        .option('--idempotency-key <key>', `for ${IDEMPOTENT_ROUTES} (default: a new UUID, so retries are safe)`)
        .addHelpText(
          'after',
          '\nExamples:\n' +
            `  trx-rent api ${ENDPOINTS.getBalance.path}\n` +
            '  trx-rent api orders -f status=FILLED -F limit=100 --paginate --query "[].id"\n' +
            `  trx-rent api POST ${ENDPOINTS.createOrder.path} --input order.json   # sent as is: no preview, no confirmation\n` +
            `  trx-rent api GET ${ENDPOINTS.getBestPrice.path} -f resource=ENERGY -i\n` +
            `  trx-rent api ${ENDPOINTS.x402Network.path} -f format=summary --key-file key.txt --yes`,
        ),
    ).action(action(runApi));
  },
};

async function readInput(ctx: Context, file: string): Promise<unknown> {
  let text: string;
  if (file === '-') {
    if (ctx.stdin.isTTY)
      throw new UsageError(
        '--input - reads stdin, which is a terminal',
        `pipe the body: trx-rent api POST ${ENDPOINTS.createOrder.path} --input - < order.json`,
        'MISSING_ARGUMENT',
      );
    text = await ctx.readStdin();
  } else {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${file === '-' ? '-' : file} is not JSON`, undefined, 'VALIDATION_ERROR');
  }
}

async function runApi(ctx: Context, { args: [first, second], opts }: { args: [string, string?]; opts: ApiOptions; cmd: Command }): Promise<number | void> {
  let method: Method | undefined;
  let target: string;
  if (second === undefined) {
    target = first;
  } else {
    const upper = first.toUpperCase();
    if (!(METHODS as readonly string[]).includes(upper)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')}, got ${JSON.stringify(first)}`);
    method = upper as Method;
    target = second;
  }
  const fields: Record<string, unknown> = {};
  for (const f of opts.rawField) {
    const [k, v] = splitField(f, '-f');
    fields[k] = v;
  }
  for (const f of opts.field) {
    const [k, v] = splitField(f, '-F');
    fields[k] = typedValue(v);
  }
  const headers: Record<string, string> = {};
  for (const h of opts.header) {
    const at = h.indexOf(':');
    if (at <= 0) throw new UsageError(`-H takes name:value, got ${JSON.stringify(h.replace(/:.*/, ':…'))}`);
    const name = h.slice(0, at).trim().toLowerCase();
    if (name === 'x-api-key' || name === 'authorization') {
      throw new UsageError(`-H ${name} is not taken (it would show in the process list)`, 'the key comes from --api-key-file, TRX_RENT_API_KEY or the profile');
    }
    headers[name] = h.slice(at + 1).trim();
  }
  let input: unknown;
  if (opts.input !== undefined) input = await readInput(ctx, opts.input);
  method ??= !opts.paginate && (Object.keys(fields).length || input !== undefined) ? 'POST' : 'GET';
  const inQuery = method === 'GET' || method === 'DELETE' || input !== undefined;
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate walks the pages of a GET');
  const idempotencyKey = parseIdempotencyKey(opts.idempotencyKey);

  // A call that is not a GET may spend (an order, a withdrawal, a broadcast): a mock the CLI found is named first.
  if (method !== 'GET') ctx.config.markSpending();
  const settings = await ctx.config.settings(true);
  if (!settings.baseUrl) {
    throw new UsageError('No API base URL', 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or try --mock', 'CONFIGURATION_ERROR');
  }
  const resolved = resolvePath(target, settings.baseUrl.value);
  const query: Record<string, unknown> = { ...resolved.query, ...(inQuery ? fields : {}) };
  const body = inQuery ? input : fields;
  const { path } = resolved;
  const { unknown: anything } = await import('zod');
  const schema = anything();

  const print = (data: unknown, response: Response) => {
    if (opts.include) ctx.out.plain(headerBlock(response));
    if (data === undefined) return;
    ctx.out.result(data);
  };

  if (path.startsWith('/x402/')) {
    if (method !== 'GET' && method !== 'POST') throw new UsageError(`the x402 routes take GET or POST, not ${method}`);
    if (opts.paginate) throw new UsageError('--paginate is for /api/v1 list endpoints');
    const run = await paidClient(ctx, opts);
    let paid: Awaited<ReturnType<typeof run.client.request<typeof schema>>>;
    try {
      paid = await run.client.request(method, path, {
        schema,
        ...(Object.keys(query).length ? { query } : {}),
        ...(method === 'POST' ? { body: body ?? {} } : {}),
      });
    } catch (error) {
      throw translate(run.sdk, error);
    }
    const p = paid.payment;
    if (p)
      ctx.out.diag(
        ctx.out.e.dim(
          `paid ${p.amount_usd} USD in ${p.symbol} on ${run.sdk.networkLabel(p.network)} (${p.scheme})${p.transaction ? `, tx ${p.transaction}` : ''}`,
        ),
      );
    print(paid.data, paid.response);
    return;
  }

  const apiKey = settings.apiKey?.value;
  if (!apiKey) ctx.debug('no API key configured: sending without one');
  const client = await ctx.clients.clientFor(settings.baseUrl.value, apiKey);
  const http = client.http;
  // The endpoint table says which operation this is: whether it honours an Idempotency-Key
  // (then one is always sent, so the request core may retry the POST) and how it pages.
  const entry = findEndpoint(method, path);
  const key = entry?.idempotent ? (idempotencyKey ?? randomUUID()) : idempotencyKey;
  const send = (q: Record<string, unknown>) =>
    http.request({
      // The request core types the account API's own methods; PUT and PATCH go through it the same way.
      method: method as 'GET',
      path,
      ...(Object.keys(q).length ? { query: q as Record<string, string> } : {}),
      ...(body !== undefined && !(method === 'GET' || method === 'DELETE') ? { body } : {}),
      schema,
      auth: Boolean(apiKey),
      ...(key ? { idempotencyKey: key } : {}),
      options: { headers },
    });

  if (!opts.paginate) {
    const { data, response } = await send(query);
    print(data, response);
    return;
  }
  // Every page into one array, as the entry's pagination says (the one walker, src/internal/paginate.ts).
  if (!entry?.pagination) {
    const { data, response } = await send(query);
    if (!Array.isArray(data)) throw new CliError('NOT_A_LIST', `${path} is not a paginated list`, { exitCode: EXIT.USAGE, hint: 'drop --paginate' });
    print(data, response); // not a paged list: the one answer is all of it
    return;
  }
  const facts = entry.pagination;
  const all: unknown[] = [];
  let firstResponse: Response | undefined;
  const fetchPage = async (offset: number) => {
    const page = await send({ ...query, [facts.offset]: offset });
    firstResponse ??= page.response;
    if (!pageOf(facts, page.data))
      throw new CliError('NOT_A_LIST', `${path} did not answer a page (no ${facts.items} array)`, { exitCode: EXIT.USAGE, hint: 'drop --paginate' });
    return page;
  };
  try {
    for await (const item of walkPages({ facts, startOffset: Number(query.offset ?? 0) || 0, maxPages: MAX_PAGES, fetchPage, body: (page) => page.data }))
      all.push(item);
  } catch (error) {
    if (error instanceof PaginationLimitError) throw new CliError('PAGINATION_LIMIT', `stopped after ${MAX_PAGES} pages`, { hint: 'narrow the query' });
    throw error;
  }
  print(all, firstResponse!);
}

export default command;
