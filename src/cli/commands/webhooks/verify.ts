/**
 * `trx-rent webhooks verify`: check one delivery (raw body on stdin, the signature header's
 * value in `--signature`) with the webhook verifier.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { ENV, describeSource } from '../../settings.js';
import { DEFAULT_TOLERANCE_SEC, SECRET_HELP, preferHelp, replayCheck } from './secret.js';

/** Add `webhooks verify` to `cmd`. */
export function registerWebhooksVerify(cmd: Command): void {
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
  const secret = await ctx.config.resolver.webhookSecret(opts);
  const missing = [...(secret ? [] : [`--secret (or --secret-file, ${ENV.webhookSecret})`]), ...(opts.signature ? [] : ['--signature'])];
  if (ctx.stdin.isTTY) missing.push('the body on stdin');
  if (missing.length)
    throw new UsageError(`missing ${missing.join(', ')}`, 'trx-rent webhooks verify --secret-file FILE --signature "sha256=…" < body.json', 'MISSING_ARGUMENT');
  ctx.debug(`webhook secret from ${describeSource(secret!.source)}`);
  const replay = replayCheck(opts);
  const raw = await ctx.readStdinBytes();
  const { constructWebhookEvent } = await import('../../../webhooks/index.js');
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
