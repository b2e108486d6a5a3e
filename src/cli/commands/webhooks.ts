import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { formatTime } from '../format.js';
import { renderPairs, renderTable } from '../output.js';
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
    cmd
      .command('create')
      .description('register an HTTPS endpoint; the signing secret appears only in this output')
      .option('--url <url>', 'https:// endpoint (http:// only on loopback, e.g. for the mock)')
      .option('--events <list>', `comma-separated, or "all": ${EVENTS.join(', ')}`)
      .action(action(runCreate));

    cmd
      .command('list')
      .description('registered endpoints (secrets are never listed)')
      .action(action(runList));

    cmd
      .command('delete')
      .description('remove an endpoint (asks to confirm unless --yes)')
      .argument('[id]', 'webhook id')
      .action(action(runDelete));

    cmd
      .command('verify')
      .description('check a delivery: raw body on stdin, the signature header value in --signature')
      .usage('--secret-file FILE --signature "sha256=…" < body.json')
      .option('--secret <secret>', SECRET_HELP)
      .option('--secret-file <path>', 'read the webhook secret from a file')
      .option('--signature <value>', 'the X-Service-Signature header value (sha256=<hex>)')
      .option('--tolerance <seconds>', "also reject events whose timestamp is older than this (0 = don't check)", '0')
      .addHelpText('after', preferHelp(false))
      .action(action(runVerify));

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
      .option('--tolerance <seconds>', 'reject events older than this (0 = no check)', '300')
      .addHelpText(
        'after',
        '\nWith --json each delivery is one JSON line on stdout; the ready line goes to stderr. ' +
          'Example: trx-rent webhooks listen --mock --forward-to http://localhost:3000/webhooks' +
          preferHelp(true),
      )
      .action(
        action<[], ListenOptions>(async (ctx, { opts }) => listen(ctx, opts)),
      );
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
  tolerance: string;
}

async function listen(ctx: Context, opts: ListenOptions): Promise<number> {
  const port = parseInteger(opts.port, '--port', { max: 65_535 });
  const toleranceSec = parseInteger(opts.tolerance, '--tolerance');
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
    toleranceSec,
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

async function runCreate(ctx: Context, { opts }: { args: []; opts: { url?: string; events?: string }; cmd: Command }): Promise<number | void> {
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

async function runList(ctx: Context): Promise<number | void> {
  const client = await ctx.client();
  const list = await (await client.get('webhooks')).list();
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
  });
}

async function runDelete(ctx: Context, { args: [idArg] }: { args: [string?]; opts: Record<string, unknown>; cmd: Command }): Promise<number | void> {
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

async function runVerify(ctx: Context, { opts }: { args: []; opts: { secret?: string; secretFile?: string; signature?: string; tolerance: string }; cmd: Command }): Promise<number | void> {
  // stdin carries the body here, so the secret cannot come from it.
  const secret = await ctx.settingsResolver.webhookSecret(opts);
  const missing = [...(secret ? [] : [`--secret (or --secret-file, ${ENV.webhookSecret})`]), ...(opts.signature ? [] : ['--signature'])];
  if (ctx.stdin.isTTY) missing.push('the body on stdin');
  if (missing.length) throw new UsageError(`missing ${missing.join(', ')}`, 'trx-rent webhooks verify --secret-file FILE --signature "sha256=…" < body.json', 'MISSING_ARGUMENT');
  ctx.debug(`webhook secret from ${describeSource(secret!.source)}`);
  const toleranceSec = parseInteger(opts.tolerance, '--tolerance');
  const raw = await ctx.readStdinBytes();
  const { constructWebhookEvent } = await import('../../webhooks/index.js');
  try {
    const event = await constructWebhookEvent(raw, opts.signature, secret!.value, toleranceSec > 0 ? { toleranceSec } : { skipTimestampCheck: true });
    ctx.out.result({ verified: true, event }, () => `${ctx.out.s.green('✓ verified')} ${event.event}\n${JSON.stringify(event.data, null, 2)}`);
  } catch (error) {
    const reason = String((error as { reason?: unknown }).reason ?? 'invalid');
    throw new CliError('WEBHOOK_SIGNATURE_INVALID', `${(error as Error).message} (${reason})`, {
      exitCode: EXIT.API,
      hint: 'pass the raw body exactly as received, the header value as sent, and the secret from `webhooks create`',
    });
  }
}

export default command;
