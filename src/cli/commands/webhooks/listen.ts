/**
 * `trx-rent webhooks listen`: a local receiver, like `stripe listen`, that verifies each delivery,
 * prints it and forwards it to `--forward-to`; with `--register` (or `--mock`) it registers
 * itself as a webhook for the session and prints the signing secret once.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import { WEBHOOK_EVENTS as EVENTS } from '../../facts.js';
import { parseInteger } from '../../parse.js';
import { type DeliveryOutcome, startReceiver } from '../../receiver.js';
import { ENV, describeSource } from '../../settings.js';
import { parseEvents } from './events.js';
import { DEFAULT_TOLERANCE_SEC, SECRET_HELP, preferHelp, replayCheck } from './secret.js';

/** Add `webhooks listen` to `cmd`. */
export function registerWebhooksListen(cmd: Command): void {
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

async function runWebhooksListen(ctx: Context, { opts }: { opts: ListenOptions }) {
  return listen(ctx, opts);
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
  const given = await ctx.config.resolver.webhookSecret(opts, () => ctx.readStdin());
  let secret = given?.value;
  if (given) ctx.debug(`webhook secret from ${describeSource(given.source)}`);
  if (!secret && !register) {
    if (!ctx.interactive) {
      throw new UsageError(
        'missing --secret',
        `set ${ENV.webhookSecret}, pass --secret-file FILE (or - for stdin), or use --register / --mock`,
        'MISSING_ARGUMENT',
      );
    }
    secret = await (await ctx.ask.prompts()).password({ message: 'Webhook signing secret?', mask: '*' });
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
    const client = await ctx.clients.client();
    if (ctx.opts.mock) {
      const mock = await ctx.mocks.embedded();
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
