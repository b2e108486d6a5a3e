/**
 * Exit codes and one-line, actionable error reports.
 *
 *   0 success (also a declined confirmation: "Cancelled.") · 1 API or network error · 2 usage or
 *   validation error (also: no terminal to confirm on) · 3 authentication or permission · 4 not
 *   found · 5 rate limited · 130 interrupted (Ctrl+C; 143 for SIGTERM)
 */
import {
  ForbiddenError,
  InvalidAddressError,
  NotFoundError,
  RateLimitedError,
  TrxRentError,
  UnauthorizedError,
  ValidationError,
} from '../errors/index.js';
import { redactText } from '../internal/redact.js';
import type { PERMISSIONS } from './facts.js';
import { amountOf, formatDuration } from './format.js';

export const EXIT = {
  OK: 0,
  API: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  RATE_LIMITED: 5,
  /** 128 + SIGINT: Ctrl+C during a wait or a prompt. */
  INTERRUPTED: 130,
  /** 128 + SIGTERM. */
  TERMINATED: 143,
} as const;

/** An error raised by the CLI itself, with its exit code and a hint. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint: string | undefined;
  /** What is known at the failure (a send's stage, tx id, order id), shown in the `--json` error line. */
  details?: Record<string, unknown> | undefined;
  constructor(code: string, message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT.API;
    this.hint = options.hint;
  }
}

/** Wrong or missing arguments, options or settings: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string, code = 'USAGE_ERROR') {
    super(code, message, { exitCode: EXIT.USAGE, ...(hint ? { hint } : {}) });
    this.name = 'UsageError';
  }
}

/**
 * The user answered no to a confirmation: nothing was done, and that is what they asked for, so
 * the run prints "Cancelled." and exits 0 (like gh). Interrupting a prompt (Ctrl+C) is 130.
 */
export class CancelledError extends CliError {
  constructor(message = 'Cancelled.') {
    super('CANCELLED', message, { exitCode: EXIT.OK });
    this.name = 'CancelledError';
  }
}

/**
 * A wait interrupted by Ctrl+C (or SIGTERM): what was being waited for, its last status and the
 * command that resumes watching. Exit 130 (143 for SIGTERM).
 */
export class InterruptedError extends CliError {
  override details: Record<string, unknown>;
  readonly resume: string | undefined;
  constructor(message: string, options: { signal?: string; resume?: string | undefined; details?: Record<string, unknown> } = {}) {
    super('INTERRUPTED', message, {
      exitCode: options.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED,
      ...(options.resume ? { hint: `resume with: ${options.resume}` } : {}),
    });
    this.name = 'InterruptedError';
    this.resume = options.resume;
    this.details = options.details ?? {};
  }
}

const USAGE_CODES = new Set(['VALIDATION_ERROR', 'INVALID_ADDRESS', 'CONFIGURATION_ERROR', 'USAGE_ERROR', 'BELOW_MINIMUM_ORDER']);

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ValidationError || error instanceof InvalidAddressError) return EXIT.USAGE;
  if (error instanceof UnauthorizedError || error instanceof ForbiddenError) return EXIT.AUTH;
  if (error instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (error instanceof RateLimitedError) return EXIT.RATE_LIMITED;
  if (error instanceof TrxRentError) {
    // Codes without their own class (older live-service names) by meaning.
    if (USAGE_CODES.has(error.code) || error.code === 'INVALID_AMOUNT') return EXIT.USAGE;
    if (error.code === 'ORDER_NOT_FOUND') return EXIT.NOT_FOUND;
    return EXIT.API;
  }
  if (isPromptExit(error)) return EXIT.INTERRUPTED;
  return EXIT.API;
}

export function isPromptExit(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}

export interface ErrorReport {
  code: string;
  message: string;
  hint?: string;
  exit_code: number;
  status?: number;
  details?: Record<string, unknown>;
}

/**
 * Where a setting came from: structurally settings.ts's `Source` (not imported: settings.ts
 * imports this file).
 */
export interface SourceLike {
  kind: string;
  flag?: string;
  path?: string;
  name?: string;
  profile?: string;
}

function describeSource(source: SourceLike): string {
  switch (source.kind) {
    case 'flag':
      return source.flag ?? 'a flag';
    case 'file':
      return `${source.flag} ${source.path}`;
    case 'stdin':
      return `stdin (${source.flag})`;
    case 'env':
      return source.name ?? 'the environment';
    case 'profile':
      return `profile ${source.profile}`;
    case 'mock':
      return 'embedded mock';
    default:
      return source.kind;
  }
}

export interface HintContext {
  /** Base URL the command talked to, when known. */
  baseUrl?: string | undefined;
  /** Where the base URL came from (`--base-url`, `TRX_RENT_BASE_URL`, `profile work`). */
  baseUrlSource?: SourceLike | undefined;
  /** Where the API key came from, when one was sent. */
  apiKeySource?: SourceLike | undefined;
  /** The command path, e.g. `orders get`. */
  command?: string | undefined;
  /** Money the command needed (for INSUFFICIENT_BALANCE), in SUN. */
  spending?: { sun: number; currency: 'TRX' | 'USDT' } | undefined;
  /** Looks up the balance for the INSUFFICIENT_BALANCE hint; may fail. */
  balance?: (() => Promise<{ trx: number; usdt: number; trx_locked: number }>) | undefined;
}

/** The permission each command needs (for the FORBIDDEN hint). */
const PERMISSION_FOR: Record<string, (typeof PERMISSIONS)[number]> = {
  buy: 'create_orders',
  'orders list': 'view_orders',
  'orders get': 'view_orders',
  'orders wait': 'view_orders',
  balance: 'view_balance',
  history: 'view_balance',
  'history summary': 'view_balance',
};

/** The structured report of any error: code, message and, where we can, what to do about it. */
export async function reportFor(error: unknown, hc: HintContext = {}): Promise<ErrorReport> {
  const exit_code = exitCodeFor(error);
  if (error instanceof CliError) {
    return {
      code: error.code,
      message: redactText(error.message),
      exit_code,
      ...(error.hint ? { hint: error.hint } : {}),
      ...(error instanceof InterruptedError || error.details ? { details: (error as { details?: Record<string, unknown> }).details } : {}),
    };
  }
  if (error instanceof TrxRentError) {
    // The SDK's wording names SDK options; a CLI user gets the CLI's way out in the hint instead.
    const message = error.code === 'INSECURE_TRANSPORT' ? error.message.replace(/ Use https:\/\/, or pass \{ allowInsecureHttp: true \}[^.]*\./, '') : error.message;
    const report: ErrorReport = { code: error.code, message: redactText(message), exit_code };
    if (error.status !== undefined) report.status = error.status;
    const hint = await hintFor(error, hc);
    if (hint) report.hint = hint;
    return report;
  }
  if (isPromptExit(error)) return { code: 'CANCELLED', message: 'Cancelled.', exit_code };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'UNEXPECTED', message: redactText(message), exit_code, hint: 'Run again with --verbose for details.' };
}

async function hintFor(error: TrxRentError, hc: HintContext): Promise<string | undefined> {
  const details = error.details ?? {};
  switch (error.code) {
    case 'INSUFFICIENT_BALANCE':
    case 'INSUFFICIENT_FUNDS': {
      const need = hc.spending;
      let available: number | undefined;
      try {
        const balance = hc.balance ? await hc.balance() : undefined;
        if (balance) available = need?.currency === 'USDT' ? balance.usdt : balance.trx;
      } catch {
        // The hint is best effort; the error itself is what matters.
      }
      const currency = need?.currency ?? 'TRX';
      const unit = (n: number) => amountOf(n, currency);
      const parts: string[] = [];
      if (available !== undefined) parts.push(`balance ${unit(available)}`);
      if (need) parts.push(`needed ${unit(need.sun)}`);
      if (available !== undefined && need && need.sun > available) parts.push(`short by ${unit(need.sun - available)}`);
      parts.push('top up with `trx-rent deposit info`');
      return parts.join('; ');
    }
    case 'RATE_LIMITED': {
      const ms = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
      return ms !== undefined
        ? `wait ${formatWait(ms)} before retrying, as the server's Retry-After asks`
        : 'wait a minute before retrying';
    }
    case 'UNAUTHORIZED':
      return unauthorizedHint(hc);
    case 'FORBIDDEN': {
      const permission = hc.command ? PERMISSION_FOR[hc.command] : undefined;
      return permission
        ? `this key lacks the ${permission} permission; create one that has it with \`trx-rent keys create --permissions ${permission}\``
        : 'this key lacks the permission; create a key with it (`trx-rent keys create`)';
    }
    case 'NOT_FOUND':
    case 'ORDER_NOT_FOUND':
      return hc.command === 'api'
        ? 'check the path (trx-rent api PATH: below /api/v1 unless it starts with /api/, /x402/ or /__mock/; a field makes it a POST unless you name the METHOD)'
        : hc.command?.startsWith('orders')
        ? 'check the id with `trx-rent orders list`'
        : hc.command?.startsWith('webhooks')
          ? 'check the id with `trx-rent webhooks list`'
          : 'check the id';
    case 'VALIDATION_ERROR':
    case 'BELOW_MINIMUM_ORDER':
    case 'INVALID_AMOUNT': {
      const field = typeof details.field === 'string' ? details.field : undefined;
      const min = details.min;
      if (field && min !== undefined) {
        // A duration in the CLI's own units (--duration 5m), not the API's seconds.
        if (/duration/.test(field) && Number.isFinite(Number(min))) return `--duration must be at least ${formatDuration(Number(min))} (e.g. --duration ${formatDuration(Number(min))})`;
        return `${field} must be at least ${String(min)}`;
      }
      const range = /duration: must be between (\d+) and (\d+) seconds/.exec(error.message);
      if (range) return `--duration must be between ${formatDuration(Number(range[1]))} and ${formatDuration(Number(range[2]))}, e.g. --duration ${formatDuration(Number(range[1]))}`;
      return field ? `check ${field}` : 'check the arguments (see --help)';
    }
    case 'INVALID_ADDRESS':
      return 'a TRON address starts with T and has 34 base58 characters';
    case 'INSECURE_TRANSPORT':
      return 'use an https:// base URL (--base-url, TRX_RENT_BASE_URL or the profile); plain http is allowed only to localhost';
    case 'PRICE_EXCEEDED':
      return 'raise --max-price, or place a LIMIT order (--type LIMIT) that waits for the price';
    case 'PROVIDER_UNAVAILABLE':
      return 'no provider can fill this now; try another duration or amount, or again later';
    case 'DUPLICATE_REQUEST':
      return 'this idempotency key was used with different parameters; use a new --idempotency-key';
    case 'MAINTENANCE':
      return 'the service is in maintenance; try again later';
    case 'CONNECTION_ERROR':
      return connectionHint(details, hc);
    case 'TIMEOUT': {
      const order = /^Order (\S+) still/.exec(error.message)?.[1];
      return order
        ? `it may still fill: run \`trx-rent orders wait ${order}\` again, or raise --timeout`
        : `the server did not answer in time; check the network${hc.baseUrlSource ? ` and the base URL (from ${describeSource(hc.baseUrlSource)})` : ''}, then try again (safe: orders and withdrawals carry an idempotency key)`;
    }
    case 'ORDER_FAILED': {
      const order = (details.order ?? {}) as { id?: unknown };
      const id = order.id === undefined ? '<id>' : String(order.id);
      if (details.status === 'PARTIALLY_FILLED') return `part of it was delivered: see the fills with \`trx-rent orders get ${id}\``;
      return `nothing was delivered; see \`trx-rent orders get ${id}\` and try again, perhaps with a higher --max-price`;
    }
    case 'CONFIGURATION_ERROR':
      return 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or use --mock';
    case 'INVALID_RESPONSE':
      return 'the server answered something unexpected; run with --verbose and check --base-url';
    case 'INTERNAL_ERROR':
      return 'a server-side failure; try again later';
    case 'BROADCAST_FAILED':
      return 'the TRON network refused the transaction (expired, already broadcast, or not enough TRX); sign a new one';
    default:
      return undefined;
  }
}

export function formatWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  return `${Math.ceil(s / 60)} min`;
}

/** One line for people: `error CODE: message (hint: …)`. */
/** A message longer than this is not one line: the hint comes first and the message is wrapped. */
const ONE_LINE = 200;

/**
 * An error report for people: one line (`error CODE: message (hint: …)`) when it is short; a long
 * one (a payment refusal listing every offer) puts the hint, what to do, on the first line and
 * wraps the message below it at `width` columns.
 */
export function formatReport(report: ErrorReport, style: { red(s: string): string; dim(s: string): string }, width = 80): string {
  if ([...report.message].length <= ONE_LINE && !report.message.includes('\n')) {
    return `${style.red(`error ${report.code}`)}: ${report.message}${report.hint ? style.dim(` (hint: ${report.hint})`) : ''}`;
  }
  const head = `${style.red(`error ${report.code}`)}${report.hint ? `: ${report.hint}` : ''}`;
  return `${head}\n${wrap(report.message, Math.max(40, width) - 2).map((l) => `  ${style.dim(l)}`).join('\n')}`;
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let current = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (current && [...current].length + 1 + [...word].length > width) {
        lines.push(current);
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    lines.push(current);
  }
  return lines;
}

/** How to change the base URL where it came from. */
function fixBaseUrl(source: SourceLike | undefined): string {
  switch (source?.kind) {
    case 'flag':
      return 'fix --base-url';
    case 'env':
      return `fix ${source.name} (or unset it to use the profile's)`;
    case 'profile':
      return `fix it with \`trx-rent config set base_url URL --profile ${source.profile}\``;
    case 'mock':
      return 'the embedded mock stopped; run again';
    default:
      return 'pass --base-url URL or set TRX_RENT_BASE_URL';
  }
}

/** What to do about a connection failure, by its kind (details.cause from the transport), naming the URL and its source. */
function connectionHint(details: Record<string, unknown>, hc: HintContext): string {
  const url = typeof details.url === 'string' ? details.url : hc.baseUrl;
  let host = url ?? 'the API';
  try {
    if (url) host = new URL(url).host;
  } catch {
    // keep the text
  }
  const from = hc.baseUrlSource ? ` (base URL from ${describeSource(hc.baseUrlSource)})` : '';
  const fix = fixBaseUrl(hc.baseUrlSource);
  switch (details.cause) {
    case 'refused':
      return `nothing is listening at ${host}${from}: is the server running (\`trx-rent mock\` for a local one)? otherwise ${fix}`;
    case 'dns':
      return `the host name in ${url ?? 'the base URL'}${from} does not resolve: check its spelling and your DNS; ${fix}`;
    case 'tls':
      return `the TLS handshake with ${host} failed${details.syscode ? ` (${String(details.syscode)})` : ''}: an http:// server needs an http:// base URL; an expired or self-signed certificate must be fixed on the server (or trusted with NODE_EXTRA_CA_CERTS)${from}`;
    case 'timeout':
      return `${host} did not answer in time${from}: check the network, a firewall or proxy, then try again`;
    case 'reset':
      return `${host} dropped the connection${from}: try again (safe: orders and withdrawals carry an idempotency key)`;
    case 'unreachable':
      return `no route to ${host}${from}: check the network connection`;
    default:
      if (details.syscode === 'BAD_PORT') return `fetch refuses to connect to ${url ?? host}: its port is one browsers block as unsafe${from}; serve the API on another port`;
      return `is the API at ${url ?? 'the base URL'} reachable?${from} ${fix}`;
  }
}

/** A rejected key: where it came from, and how to fix that source (a stale environment variable overrides `login`). */
function unauthorizedHint(hc: HintContext): string {
  const source = hc.apiKeySource;
  switch (source?.kind) {
    case 'env':
      return `the key in ${source.name} was rejected: set a valid one, or \`unset ${source.name}\` to use the profile's key (${source.name} overrides \`trx-rent login\`)`;
    case 'file':
      return `the key in ${source.path} (${source.flag}) was rejected: put a valid key in that file`;
    case 'profile':
      return `the key saved in profile ${source.profile} was rejected (revoked?): run \`trx-rent login --profile ${source.profile}\` with a valid key`;
    case 'stdin':
      return 'the key read from stdin was rejected: check it';
    case 'mock':
      return 'the embedded mock rejected its own key: run again';
    default:
      return 'set TRX_RENT_API_KEY, pass --api-key-file FILE, or run `trx-rent login`';
  }
}
