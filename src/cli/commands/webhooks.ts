import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { formatTime } from '../format.js';
import { outputSchema, renderPairs, renderTable } from '../output.js';
import { WEBHOOK_EVENTS as EVENTS } from '../facts.js';
import { parseChoice, parseInteger, parseList } from '../parse.js';
import { type DeliveryOutcome, startReceiver } from '../receiver.js';
import { ENV, describeSource } from '../settings.js';
import type { CommandModule } from '../types.js';

function parseEvents(input: string | undefined): Array<(typeof EVENTS)[number]> | undefined {
  if (input === undefined) return undefined;
  const list = parseList(input);
  if (list.length === 1 && list[0] === 'all') return [...EVENTS];
  return list.map((e) => parseChoice(e, EVENTS, '--events'));
}

const SECRET_HELP =
  `the webhook secret; prefer ${ENV.webhookSecret} or --secret-file (a flag value shows in shell history and ps)`;
const preferHelp = (stdin: boolean) =>
  `\nSecret: prefer the environment (${ENV.webhookSecret}) or a file (--secret-file FILE${stdin ? ', or - for stdin' : ''}) ` +
  'over --secret: a flag value is visible in shell history and to other users in the process list.';

const command: CommandModule = {
  description:
    'Manage webhook endpoints, verify a delivery, or run a local receiver that verifies each ' +
    'delivery, prints it and forwards it (like `stripe listen`).',
  register(cmd: Command) {
    registerWebhooksCreate(cmd);
    registerWebhooksList(cmd);
    registerWebhooksDelete(cmd);
    registerWebhooksVerify(cmd);
    registerWebhooksTrigger(cmd);
    registerWebhooksDeliveries(cmd);
    registerWebhooksReactivate(cmd);
    registerWebhooksRedeliver(cmd);
    registerWebhooksListen(cmd);
  },
};

interface ListenOptions {
  forwardTo?: string;
  secret?: string;
  secretFile?: string;
  register?: boolean;
  events?: string;
  port: string;
  host: string;
  path: string;
  tolerance?: string;
  timestampCheck: boolean;
}

/** The library's replay window (constructWebhookEvent's default toleranceSec). */
const DEFAULT_TOLERANCE_SEC = 300;

/**
 * The replay check of `verify` and `listen`: on by default with the library's window;
 * `--tolerance N` (N >= 1) changes the window; only `--no-timestamp-check` turns it off
 * (`--tolerance 0` used to, silently: it is now a usage error that names the flag).
 */
export function replayCheck(opts: { tolerance?: string | undefined; timestampCheck?: boolean | undefined }): { toleranceSec?: number; skipTimestampCheck?: true } {
  if (opts.timestampCheck === false) {
    if (opts.tolerance !== undefined) throw new UsageError('--tolerance and --no-timestamp-check contradict each other', 'pass one of them');
    return { skipTimestampCheck: true };
  }
  if (opts.tolerance === undefined) return {};
  if (/^\s*0+\s*$/.test(opts.tolerance)) {
    throw new UsageError('--tolerance 0 no longer turns the replay check off', 'pass --no-timestamp-check to skip it on purpose, or a window of 1 second or more');
  }
  return { toleranceSec: parseInteger(opts.tolerance, '--tolerance', { min: 1 }) };
}

async function listen(ctx: Context, opts: ListenOptions): Promise<number> {
  const port = parseInteger(opts.port, '--port', { max: 65_535 });
  const replay = replayCheck(opts);
  const events = parseEvents(opts.events) ?? [...EVENTS];
  if (opts.forwardTo) {
    try {
      const u = new URL(opts.forwardTo);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError(`--forward-to must be an http(s) URL, got ${JSON.stringify(opts.forwardTo)}`);
    }
  }
  const register = Boolean(opts.register || ctx.opts.mock);
  const given = await ctx.settingsResolver.webhookSecret(opts, () => ctx.readStdin());
  let secret = given?.value;
  if (given) ctx.debug(`webhook secret from ${describeSource(given.source)}`);
  if (!secret && !register) {
    if (!ctx.interactive) {
      throw new UsageError('missing --secret', `set ${ENV.webhookSecret}, pass --secret-file FILE (or - for stdin), or use --register / --mock`, 'MISSING_ARGUMENT');
    }
    secret = await (await ctx.prompts()).password({ message: 'Webhook signing secret?', mask: '*' });
  }

  const out = ctx.out;
  const pending = new Set<Promise<void>>();
  let count = 0;
  const handle = (outcome: DeliveryOutcome) => {
    const task = (async () => {
      count++;
      const at = new Date().toISOString();
      if (!outcome.ok) {
        const record = { type: 'delivery', at, verified: false, reason: outcome.reason, path: outcome.delivery.path };
        if (out.json) out.line(record);
        else out.print(`${out.s.dim(at)}  ${out.s.red('rejected')}  ${outcome.reason}: ${outcome.message}`);
        return;
      }
      const { event, delivery } = outcome;
      let forwarded: { url: string; status?: number; error?: string } | undefined;
      if (opts.forwardTo) {
        forwarded = { url: opts.forwardTo };
        try {
          const headers: Record<string, string> = {
            'content-type': String(delivery.headers['content-type'] ?? 'application/json'),
            'user-agent': 'trx-rent-cli webhooks listen',
          };
          if (delivery.signature) headers[delivery.signatureHeader ?? 'x-service-signature'] = delivery.signature;
          const response = await ctx.fetch(opts.forwardTo, {
            method: 'POST',
            headers,
            body: delivery.raw as BodyInit,
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer().catch(() => undefined);
          forwarded.status = response.status;
        } catch (error) {
          forwarded.error = (error as Error).name === 'TimeoutError' ? 'timed out after 10 s' : String((error as Error).message ?? error);
        }
      }
      const id = (event.data as { id?: unknown }).id;
      if (out.json) {
        out.line({ type: 'delivery', at, verified: true, event: event.event, ...(forwarded ? { forwarded } : {}), body: event });
      } else {
        const s = out.s;
        const fwd = forwarded
          ? forwarded.status !== undefined
            ? ` → ${forwarded.status < 300 ? s.green(String(forwarded.status)) : s.red(String(forwarded.status))} ${forwarded.url}`
            : ` → ${s.red(`failed: ${forwarded.error}`)}`
          : '';
        out.print(`${s.dim(at)}  ${s.green('✓')} ${s.bold(event.event)}${id !== undefined ? ` ${String(id)}` : ''}${fwd}`);
      }
    })();
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };

  const receiver = await startReceiver({
    host: opts.host,
    port,
    path: opts.path,
    secret: () => secret,
    replay,
    onDelivery: handle,
  });
  ctx.onDispose(() => receiver.close());

  let registeredId: string | undefined;
  if (register) {
    const client = await ctx.client();
    if (ctx.opts.mock) {
      const mock = await ctx.mock();
      out.diag(`Embedded mock API at ${mock.url} (demo key in TRX_RENT_API_KEY form: ${mock.apiKey})`);
      out.diag(`  drive it from another terminal: trx-rent --base-url ${mock.url} buy 65000 --to T… --duration 1h`);
    }
    const webhook = await (await client.get('webhooks')).create({ url: receiver.url, events });
    registeredId = webhook.id;
    secret = webhook.secret ?? secret;
    if (!secret) throw new CliError('NO_SECRET', 'the API did not return a signing secret for the registered webhook');
    // Printed once, as `stripe listen` does: the app behind --forward-to verifies with it.
    if (out.json) out.diagJson({ type: 'secret', webhook_id: webhook.id, secret });
    else out.diag(`Your webhook signing secret is ${secret} (^C to quit)`);
    ctx.onDispose(async () => {
      try {
        await (await client.get('webhooks')).delete(registeredId!, { maxRetries: 0, timeoutMs: 3_000 });
      } catch {
        // The session is over either way.
      }
    });
  }
  out.diag(
    `${out.e.green('Ready!')} Listening on ${receiver.url}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''}${
      registeredId ? ` (registered as webhook ${registeredId} for ${events.join(', ')})` : ''
    }. Press Ctrl+C to stop.`,
  );
  const signal = await ctx.untilSignal();
  await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 2_000).unref())]);
  out.diag(`Stopped (${signal}) after ${count} deliver${count === 1 ? 'y' : 'ies'}.`);
  return 0;
}

/**
 * A call to one of the mock's `/__mock/` control routes with the run's base URL and key (the key
 * picks the account). A server without them (the live API) answers 404: said plainly.
 */
async function mockControl(ctx: Context, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const client = await ctx.client();
  const { unknown: anything } = await import('zod');
  try {
    const { data } = await client.http.request({
      method,
      path,
      schema: anything(),
      auth: true,
      ...(body !== undefined ? { body } : method === 'POST' ? { body: {} } : {}),
      options: { maxRetries: 0 },
    });
    return data;
  } catch (error) {
    const e = error as { status?: number; code?: string };
    if (e.status === 404 && e.code === 'NOT_FOUND' && /^No route /.test(String((error as Error).message))) {
      throw new CliError('NOT_AVAILABLE', `${ctx.baseUrl ?? 'this server'} has no ${path.split('?')[0]}: this command drives the mock server`, {
        exitCode: EXIT.USAGE,
        hint: 'run it against `trx-rent mock` (TRX_RENT_BASE_URL=http://127.0.0.1:8787) or with --mock',
      });
    }
    throw error;
  }
}

function registerWebhooksCreate(cmd: Command): void {
  cmd
    .command('create')
    .description('register an HTTPS endpoint; the signing secret appears only in this output')
    .option('--url <url>', 'https:// endpoint (http:// only on loopback, e.g. for the mock)')
    .option('--events <list>', `comma-separated, or "all": ${EVENTS.join(', ')}`)
    .action(action<[], WebhooksCreateOptions>(runWebhooksCreate));
}

interface WebhooksCreateOptions {
  url?: string;
  events?: string;
}

async function runWebhooksCreate(ctx: Context, { opts }: { opts: WebhooksCreateOptions }) {
  const input = await ctx.inputs<{ url: string; events: Array<(typeof EVENTS)[number]> }>({
    url: {
      value: opts.url?.trim() || undefined,
      label: '--url URL',
      ask: async (p) =>
        (
          await p.input({
            message: 'Endpoint URL (https://…)?',
            validate: (v: string) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : 'An http(s) URL is required'),
          })
        ).trim(),
    },
    events: {
      value: parseEvents(opts.events),
      label: '--events LIST',
      ask: (p) =>
        p.checkbox({ message: 'Events?', choices: EVENTS.map((value) => ({ value, checked: true })), required: true }),
    },
  });
  const client = await ctx.client();
  const webhook = await (await client.get('webhooks')).create({ url: input.url, events: input.events });
  ctx.out.warn('the signing secret below is shown only once: store it now');
  ctx.out.result(webhook, () =>
    renderPairs(
      [
        ['id', webhook.id],
        ['url', webhook.url],
        ['events', webhook.events.join(', ')],
        ['secret', ctx.out.s.bold(String(webhook.secret ?? '(not returned)'))],
      ],
      ctx.out.s,
    ),
  );
}

function registerWebhooksList(cmd: Command): void {
  cmd
    .command('list')
    .description('registered endpoints (secrets are never listed)')
    .action(action(runWebhooksList));
}

async function runWebhooksList(ctx: Context) {
  const client = await ctx.client();
  const list = await (await client.get('webhooks')).list();
  const { Webhook } = await import('../../schemas/webhooks.js');
  ctx.out.result(list, () => {
    const s = ctx.out.s;
    if (!list.length) return s.dim('No webhooks.');
    return renderTable(
      [
        { header: 'ID', truncate: 'middle', shrink: 0, min: 13 },
        { header: 'URL', truncate: 'middle', shrink: 2, min: 20 },
        { header: 'EVENTS', shrink: 3 },
        { header: 'ACTIVE', truncate: 'none' },
        { header: 'CREATED', shrink: 2, min: 10 },
      ],
      list.map((w) => [w.id, w.url, w.events.join(','), w.is_active ? s.green('yes') : s.red('no'), formatTime(w.created_at)]),
      s,
    );
  }, outputSchema(Webhook));
}

function registerWebhooksDelete(cmd: Command): void {
  cmd
    .command('delete')
    .description('remove an endpoint (asks to confirm unless --yes)')
    .argument('[id]', 'webhook id')
    .action(action<[string?]>(runWebhooksDelete));
}

async function runWebhooksDelete(ctx: Context, { args: [idArg] }: { args: [string?] }) {
  const { id } = await ctx.inputs<{ id: string }>({
    id: {
      value: idArg?.trim() || undefined,
      label: '<id>',
      ask: async (p) => (await p.input({ message: 'Webhook id?', validate: (v: string) => (v.trim() ? true : 'required') })).trim(),
    },
  });
  await ctx.confirm(`Delete webhook ${id}?`, 'delete the webhook');
  const client = await ctx.client();
  const result = await (await client.get('webhooks')).delete(id);
  ctx.out.result({ id, ...result }, () => `${ctx.out.s.green('✓')} Webhook ${id} deleted.`);
}

function registerWebhooksVerify(cmd: Command): void {
  cmd
    .command('verify')
    .description('check a delivery: raw body on stdin, the signature header value in --signature')
    .usage('--secret-file FILE --signature "sha256=…" < body.json')
    .option('--secret <secret>', SECRET_HELP)
    .option('--secret-file <path>', 'read the webhook secret from a file')
    .option('--signature <value>', 'the X-Service-Signature header value (sha256=<hex>)')
    .option('--tolerance <seconds>', `reject events whose timestamp is further than this from now (default ${DEFAULT_TOLERANCE_SEC}, the library's window)`)
    .option('--no-timestamp-check', 'skip the replay check (e.g. a delivery saved long ago); the signature is still checked')
    .addHelpText('after', preferHelp(false))
    .action(action<[], WebhooksVerifyOptions>(runWebhooksVerify));
}

interface WebhooksVerifyOptions {
  secret?: string;
  secretFile?: string;
  signature?: string;
  tolerance?: string;
  timestampCheck: boolean;
}

async function runWebhooksVerify(ctx: Context, { opts }: { opts: WebhooksVerifyOptions }) {
  // stdin carries the body here, so the secret cannot come from it.
  const secret = await ctx.settingsResolver.webhookSecret(opts);
  const missing = [...(secret ? [] : [`--secret (or --secret-file, ${ENV.webhookSecret})`]), ...(opts.signature ? [] : ['--signature'])];
  if (ctx.stdin.isTTY) missing.push('the body on stdin');
  if (missing.length) throw new UsageError(`missing ${missing.join(', ')}`, 'trx-rent webhooks verify --secret-file FILE --signature "sha256=…" < body.json', 'MISSING_ARGUMENT');
  ctx.debug(`webhook secret from ${describeSource(secret!.source)}`);
  const replay = replayCheck(opts);
  const raw = await ctx.readStdinBytes();
  const { constructWebhookEvent } = await import('../../webhooks/index.js');
  try {
    const event = await constructWebhookEvent(raw, opts.signature, secret!.value, replay);
    ctx.out.result({ verified: true, event }, () => `${ctx.out.s.green('✓ verified')} ${event.event}\n${JSON.stringify(event.data, null, 2)}`);
  } catch (error) {
    const reason = String((error as { reason?: unknown }).reason ?? 'invalid');
    throw new CliError('WEBHOOK_SIGNATURE_INVALID', `${(error as Error).message} (${reason})`, {
      exitCode: EXIT.API,
      hint: 'pass the raw body exactly as received, the header value as sent, and the secret from `webhooks create`',
    });
  }
}

function registerWebhooksTrigger(cmd: Command): void {
  cmd
    .command('trigger')
    .description('mock only: fire EVENT (sample data of its real shape) at the webhooks subscribed to it, like `stripe trigger`')
    .argument('[event]', EVENTS.join(' | '))
    .option('--data <json>', "the event's data object instead of the sample")
    .addHelpText('after', '\nExample: trx-rent webhooks listen --register --forward-to http://localhost:3000/webhooks, then in another terminal: trx-rent webhooks trigger order.filled')
    .action(action<[string?], WebhooksTriggerOptions>(runWebhooksTrigger));
}

interface WebhooksTriggerOptions {
  data?: string;
}

async function runWebhooksTrigger(ctx: Context, { args: [eventArg], opts }: { args: [string?]; opts: WebhooksTriggerOptions }) {
  const { event } = await ctx.inputs<{ event: (typeof EVENTS)[number] }>({
    event: {
      value: eventArg === undefined ? undefined : parseChoice(eventArg.trim(), EVENTS, '<event>'),
      label: '<event>',
      ask: (p) => p.select({ message: 'Event?', choices: EVENTS.map((value) => ({ value })) }),
    },
  });
  let data: unknown;
  if (opts.data !== undefined) {
    try {
      data = JSON.parse(opts.data);
    } catch (error) {
      throw new UsageError(`--data is not JSON: ${(error as Error).message}`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data must be a JSON object');
  }
  const result = (await mockControl(ctx, 'POST', '/__mock/webhooks/trigger', { event, ...(data ? { data } : {}) })) as {
    deliveries: Array<{ id: string; url: string; status: string; webhook_id: string | null }>;
  };
  ctx.out.result(result, () => {
    const s = ctx.out.s;
    if (!result.deliveries.length) return `${s.yellow('!')} No webhook of this account subscribes to ${event}: nothing sent (register one: trx-rent webhooks listen --register).`;
    return result.deliveries
      .map((d) => `${d.status === 'skipped' ? s.yellow('skipped') : s.green('✓ sent')} ${event} to ${d.url} (webhook ${d.webhook_id}, delivery ${d.id})`)
      .join('\n');
  });
}

function registerWebhooksDeliveries(cmd: Command): void {
  cmd
    .command('deliveries')
    .description('mock only: recorded deliveries with their attempts (newest last)')
    .option('--webhook <id>', 'only this webhook')
    .option('--status <status>', 'pending | delivered | failed | skipped')
    .action(action<[], WebhooksDeliveriesOptions>(runWebhooksDeliveries));
}

interface WebhooksDeliveriesOptions {
  webhook?: string;
  status?: string;
}

async function runWebhooksDeliveries(ctx: Context, { opts }: { opts: WebhooksDeliveriesOptions }) {
  const status = opts.status === undefined ? undefined : parseChoice(opts.status, ['pending', 'delivered', 'failed', 'skipped'] as const, '--status');
  const query = new URLSearchParams({ ...(opts.webhook ? { webhook_id: opts.webhook } : {}), ...(status ? { status } : {}) }).toString();
  const { deliveries } = (await mockControl(ctx, 'GET', `/__mock/webhooks/deliveries${query ? `?${query}` : ''}`)) as {
    deliveries: Array<{ id: string; webhook_id: string | null; event: string; status: string; attempts: unknown[]; created_at: string }>;
  };
  ctx.out.result(deliveries, () => {
    const s = ctx.out.s;
    if (!deliveries.length) return s.dim('No deliveries.');
    return renderTable(
      [
        { header: 'ID', truncate: 'middle', shrink: 0, min: 12 },
        { header: 'WEBHOOK', truncate: 'middle', shrink: 1, min: 10 },
        { header: 'EVENT', shrink: 2 },
        { header: 'STATUS', truncate: 'none' },
        { header: 'ATTEMPTS', truncate: 'none' },
        { header: 'CREATED', shrink: 2, min: 10 },
      ],
      deliveries.map((d) => [d.id, d.webhook_id ?? '-', d.event, d.status, String(d.attempts.length), formatTime(d.created_at)]),
      s,
    );
  });
}

function registerWebhooksReactivate(cmd: Command): void {
  cmd
    .command('reactivate')
    .description('mock only: turn a webhook deactivated after failed deliveries back on')
    .argument('<id>', 'webhook id')
    .action(action<[string]>(runWebhooksReactivate));
}

async function runWebhooksReactivate(ctx: Context, { args: [id] }: { args: [string] }) {
  const result = (await mockControl(ctx, 'POST', `/__mock/webhooks/${encodeURIComponent(id.trim())}/reactivate`)) as { webhook: { id: string; is_active: boolean } };
  ctx.out.result(result.webhook, () => `${ctx.out.s.green('✓')} Webhook ${result.webhook.id} is active again.`);
}

function registerWebhooksRedeliver(cmd: Command): void {
  cmd
    .command('redeliver')
    .description('mock only: send a past delivery\'s event again (a new delivery, re-stamped and re-signed)')
    .argument('<delivery-id>', 'delivery id (see `webhooks deliveries`)')
    .action(action<[string]>(runWebhooksRedeliver));
}

async function runWebhooksRedeliver(ctx: Context, { args: [id] }: { args: [string] }) {
  const result = (await mockControl(ctx, 'POST', `/__mock/webhooks/deliveries/${encodeURIComponent(id.trim())}/redeliver`)) as {
    delivery: { id: string; event: string; url: string };
  };
  ctx.out.result(result.delivery, () => `${ctx.out.s.green('✓')} Redelivering ${result.delivery.event} to ${result.delivery.url} (delivery ${result.delivery.id}).`);
}

function registerWebhooksListen(cmd: Command): void {
  cmd
    .command('listen')
    .description('local receiver: verify each delivery, print it, forward it to --forward-to')
    .option('--forward-to <url>', 'where to POST each verified delivery (raw body and signature header)')
    .option('--secret <secret>', SECRET_HELP)
    .option('--secret-file <path>', 'read the webhook secret from a file ("-": stdin)')
    .option('--register', 'register this receiver as a webhook with the API for the session (implied by --mock)')
    .option('--events <list>', 'events to register for with --register/--mock (default all)')
    .option('--port <port>', 'local port (0 = any free port)', '8788')
    .option('--host <host>', 'local interface', '127.0.0.1')
    .option('--path <path>', 'path of the receiver URL', '/webhooks')
    .option('--tolerance <seconds>', `reject events whose timestamp is further than this from now (default ${DEFAULT_TOLERANCE_SEC}, the library's window)`)
    .option('--no-timestamp-check', 'skip the replay check (the signature is still checked)')
    .addHelpText(
      'after',
      '\nWith --json each delivery is one JSON line on stdout; the ready line goes to stderr. ' +
        'Example: trx-rent webhooks listen --mock --forward-to http://localhost:3000/webhooks' +
        preferHelp(true),
    )
    .action(action<[], ListenOptions>(runWebhooksListen));
}

async function runWebhooksListen(ctx: Context, { opts }: { opts: ListenOptions }) {
  return listen(ctx, opts);
}

export default command;
