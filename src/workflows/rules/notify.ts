/**
 * Notifications of the rules runner: NDJSON lines (for stdout) and a webhook signed exactly like
 * the service's (`X-Service-Signature: sha256=<HMAC-SHA256 of the raw body>`, body
 * `{ event, data, timestamp }`), so a receiver checks it with `constructWebhookEvent` from
 * `trx-rent/webhooks`. A failed delivery (or one not sent: its secret variable unset) is
 * journaled and never stops the runner. A URL's `user:password@` goes as HTTP Basic
 * authorization (fetch refuses a URL holding credentials) and is masked in every message.
 *
 * Before a run, {@link notifyWarnings} names the webhooks that cannot be signed and
 * {@link probeWebhooks} those that cannot be reached (`rules check`).
 * @module
 */
import { connect } from 'node:net';
import { redactText } from '../../internal/redact.js';
import { signWebhookPayload } from '../../webhooks/index.js';
import type { NotifySettings, Rule, RulesFile } from './schema.js';

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

type Env = Record<string, string | undefined>;
const processEnv = (): Env => (globalThis as { process?: { env: Env } }).process?.env ?? {};

/** The URL without its `user:password@`, and that as a Basic authorization header (or undefined). */
function splitCredentials(url: string): { url: string; authorization: string | undefined } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { url, authorization: undefined };
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const pair = `${decode(parsed.username)}:${decode(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}

/** One webhook of a rules file and the rules that use it (`[]`: only the file's default, used by no rule). */
interface Hook {
  url: string;
  secret_env: string;
  rules: string[];
}

function hooksOf(file: RulesFile): Hook[] {
  const byKey = new Map<string, Hook>();
  const add = (settings: NotifySettings | undefined, rule: string | undefined) => {
    const hook = settings?.webhook;
    if (!hook) return;
    const id = `${hook.url}\n${hook.secret_env}`;
    const entry = byKey.get(id) ?? { url: hook.url, secret_env: hook.secret_env, rules: [] };
    if (rule !== undefined) entry.rules.push(rule);
    byKey.set(id, entry);
  };
  add(file.notify, undefined);
  for (const rule of file.rules) add(rule.notify ?? file.notify, rule.id);
  return [...byKey.values()].filter((h) => h.rules.length > 0);
}

const named = (h: Hook) => `notify webhook ${redactText(h.url)} (rule${h.rules.length === 1 ? '' : 's'} ${h.rules.join(', ')})`;

/** The webhooks of `file` that cannot be signed, because their secret variable is not set in `env`: one line each, credentials masked. */
export function notifyWarnings(file: RulesFile, env: Env = processEnv()): string[] {
  return hooksOf(file)
    .filter((h) => !env[h.secret_env])
    .map((h) => `${named(h)}: ${h.secret_env} is not set, so its events cannot be signed and are not sent (each is journaled as not sent)`);
}

/** Whether a TCP connection to the URL's host and port opens within `timeoutMs`: undefined, or why not. */
function reach(url: string, timeoutMs: number): Promise<string | undefined> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const deadline = AbortSignal.timeout(timeoutMs);
    const late = () => done(`no connection to ${host}:${port} within ${timeoutMs / 1000} s`);
    const done = (problem: string | undefined) => {
      deadline.removeEventListener('abort', late);
      socket.destroy();
      resolve(problem);
    };
    deadline.addEventListener('abort', late, { once: true });
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`cannot be reached (${error.code ?? error.message} ${host}:${port})`));
  });
}

/**
 * The webhooks of `file` that cannot be reached now: a TCP connection to each URL's host and port
 * (nothing is sent). One line each, credentials masked.
 */
export async function probeWebhooks(file: RulesFile, options: { timeoutMs?: number | undefined } = {}): Promise<string[]> {
  const hooks = hooksOf(file);
  const problems = await Promise.all(hooks.map((h) => reach(h.url, options.timeoutMs ?? 3000)));
  return hooks.flatMap((h, i) => (problems[i] ? [`${named(h)}: ${problems[i]}`] : []));
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
    const env = this.options.env ?? processEnv();
    const secret = env[hook.secret_env];
    if (!secret) return `webhook ${redactText(hook.url)} not sent: ${hook.secret_env} is not set, so it cannot be signed`;
    try {
      const { url, authorization } = splitCredentials(hook.url);
      const response = await (this.options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': await signWebhookPayload(body, secret),
          'user-agent': 'trx-rent-rules',
          ...(authorization ? { authorization } : {}),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `webhook answered ${response.status}`;
    } catch (error) {
      return `webhook failed: ${redactText((error as Error).message)}`;
    }
  }
}
