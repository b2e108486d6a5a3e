/**
 * Notifications of the rules runner: NDJSON lines (for stdout) and a webhook signed exactly like
 * the service's (`X-Service-Signature: sha256=<HMAC-SHA256 of the raw body>`, body
 * `{ event, data, timestamp }`), so a receiver checks it with `constructWebhookEvent` from
 * `trx-rent/webhooks`. A failed delivery is journaled and never stops the runner.
 * @module
 */
import { signWebhookPayload } from '../../webhooks/index.js';
import type { Rule, RulesFile } from './schema.js';

/** The events a runner reports. */
export type RuleEventName = 'rule.action' | 'rule.suppressed' | 'rule.error' | 'rule.retired';

/** One notification: the same shape as the service's webhook events. */
export interface RuleEvent {
  event: RuleEventName;
  data: { rule: string } & Record<string, unknown>;
  /** Unix seconds. */
  timestamp: number;
}

/** Where a runner sends notifications. */
export interface NotifyOptions {
  /** Write one NDJSON line (e.g. to stdout). Omitted: no NDJSON. */
  writeLine?: ((line: string) => void) | undefined;
  /** Environment the webhook secret is read from (`notify.webhook.secret_env`). @default process.env */
  env?: Record<string, string | undefined> | undefined;
  /** fetch for webhooks. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

const ON: Record<RuleEventName, string> = { 'rule.action': 'action', 'rule.suppressed': 'suppressed', 'rule.error': 'error', 'rule.retired': 'retired' };

/** Sends a rule's events where its (or the file's) `notify` says. */
export class Notifier {
  constructor(
    private readonly file: RulesFile,
    private readonly options: NotifyOptions,
  ) {}

  /** Deliver `event` for `rule`; resolves to an error message per failed webhook delivery (never throws). */
  async send(rule: Rule, event: RuleEvent, force = false): Promise<string | undefined> {
    const settings = rule.notify ?? this.file.notify ?? { stdout: true, on: ['action', 'error', 'retired'] as const };
    if (!force && !(settings.on as readonly string[]).includes(ON[event.event])) return undefined;
    const body = JSON.stringify(event);
    if (settings.stdout && this.options.writeLine) this.options.writeLine(body);
    const hook = settings.webhook;
    if (!hook) return undefined;
    const env = this.options.env ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
    const secret = env[hook.secret_env];
    if (!secret) return `webhook not sent: ${hook.secret_env} is not set`;
    try {
      const response = await (this.options.fetch ?? fetch)(hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhookPayload(body, secret), 'user-agent': 'trx-rent-rules' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `webhook answered ${response.status}`;
    } catch (error) {
      return `webhook failed: ${(error as Error).message}`;
    }
  }
}
