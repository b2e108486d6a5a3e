/**
 * One HTTP attempt on the platform's fetch, shared by every request this package makes (the
 * account client, the x402 client and its paid retry, the TRON node and GasFree relayer calls):
 *
 * - a deadline that covers the headers *and* the body;
 * - the caller's AbortSignal, untouched (its abort is rethrown as is, never retried);
 * - no redirect is followed (`redirect: 'manual'`): a 3xx is a RedirectRefusedError, because the
 *   API key, a payment signature or the body would travel to wherever `Location` points;
 * - the body is read up to `maxResponseBytes` and no further (ResponseTooLargeError);
 * - network failures become ConnectionError, deadlines TimeoutError;
 * - the user's hooks, which see real Request/Response objects.
 *
 * It returns the response with its body read as text. The deadline aborts the request itself
 * (through an AbortSignal, joined with the caller's signal when there is one), so a request that
 * misses it gives its connection back at once (DECISIONS.md has why ky and a bare timer went).
 *
 * A fresh AbortController per attempt costs undici time, so controllers are lent
 * (`SignalLender`): one attempt in flight at a time per controller, given back when the attempt
 * ends before its deadline, retired after a few uses, and aborted (then dropped) only for the
 * attempt that missed its deadline. Aborting a signal after the fetches it served have ended
 * does nothing to them (Fetch standard: "abort fetch" touches only a fetch still in progress and
 * a body still readable, and every body here is read to the end), which
 * `test/http/http.test.ts` checks against undici with a kept-alive socket.
 * @module
 */
import { type ConnectionFailure, ConnectionError, RedirectRefusedError, ResponseTooLargeError, TimeoutError, isTrxRentError } from '../errors/index.js';
import { deadline } from './deadline.js';
import { redactText } from '../internal/redact.js';

/** Default `maxResponseBytes`: 8 MiB, far above any answer of the API. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Functions run around every attempt, e.g. to add tracing headers or record responses. */
export interface Hooks {
  /** Runs before every attempt; may return a replacement Request, or a Response to skip the network. */
  beforeRequest?: Array<(request: Request) => Request | Response | void | Promise<Request | Response | void>>;
  /** Runs after every response (including error statuses); may return a replacement Response. */
  afterResponse?: Array<(request: Request, response: Response) => Response | void | Promise<Response | void>>;
}

export interface TransportOptions {
  /** A fetch implementation; default: `globalThis.fetch`, looked up per call (so msw and undici mocks patched later are used). */
  fetch?: typeof fetch | undefined;
  hooks?: Hooks | undefined;
  /** Largest response body read, in bytes. Default 8 MiB. */
  maxResponseBytes?: number | undefined;
}

export interface AttemptInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** For messages only: method and path, e.g. `GET /api/v1/…`. */
  label: string;
}

export interface Exchange {
  response: Response;
  /** The body, decoded as UTF-8 (empty for no body). */
  text: string;
}

/** What the deadline needs to cancel an attempt in flight. */
interface Attempt {
  reader?: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

const decoder = new TextDecoder();
const ignore = () => undefined;

export class Transport {
  readonly maxResponseBytes: number;
  readonly #fetch: typeof fetch;
  readonly #hooks: Hooks | undefined;
  readonly #lender = new SignalLender();

  constructor(options: TransportOptions = {}) {
    const max = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`maxResponseBytes must be a positive integer, not ${String(options.maxResponseBytes)}`);
    this.maxResponseBytes = max;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#hooks = options.hooks?.beforeRequest?.length || options.hooks?.afterResponse?.length ? options.hooks : undefined;
  }

  /** One attempt: see the module comment. Rejects with TrxRentError subclasses, or the caller's abort reason. */
  send(url: string, init: AttemptInit): Promise<Exchange> {
    // With a caller's signal the joined signal is new anyway, and hooks may keep a response
    // unread: a fresh controller then, not a lent one.
    const lease = init.signal || this.#hooks ? undefined : this.#lender.lend();
    const controller = lease?.controller ?? new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    const requestInit: RequestInit = { method: init.method, headers: init.headers, redirect: 'manual', signal };
    if (init.body !== undefined) requestInit.body = init.body;
    const attempt: Attempt = {};
    return new Promise<Exchange>((resolve, reject) => {
      const timer = deadline(init.timeoutMs, () => {
        controller.abort();
        attempt.reader?.cancel().catch(ignore);
        const where = target(url);
        reject(new TimeoutError(`${init.label} to ${where.origin} timed out after ${init.timeoutMs} ms`, undefined, { cause: 'timeout', url: where.url }));
      });
      // Whatever the attempt does after the deadline (it is cancelled) settles nothing any more.
      this.#attempt(url, requestInit, init.label, attempt).then(
        (exchange) => {
          timer.cancel();
          if (lease && !controller.signal.aborted) this.#lender.giveBack(lease);
          resolve(exchange);
        },
        (cause: unknown) => {
          timer.cancel();
          if (lease && !controller.signal.aborted) this.#lender.giveBack(lease);
          if (init.signal?.aborted)
            reject(cause); // the caller cancelled: theirs, not a network fault
          else if (isTrxRentError(cause)) reject(cause);
          else {
            const failure = classifyFailure(cause);
            const where = target(url);
            reject(
              new ConnectionError(
                `${init.label} to ${where.origin} failed: ${FAILURE_TEXT[failure.cause]} (${failure.syscode ?? describeFailure(cause)})`,
                cause,
                {
                  ...failure,
                  url: where.url,
                },
              ),
            );
          }
        },
      );
    });
  }

  async #attempt(url: string, init: RequestInit, label: string, attempt: Attempt): Promise<Exchange> {
    const response = await (this.#hooks ? this.#withHooks(this.#hooks, url, init) : this.#fetch(url, init));
    refuseRedirect(response, url, label);
    return { response, text: await this.#read(response, label, attempt) };
  }

  async #withHooks(hooks: Hooks, url: string, init: RequestInit): Promise<Response> {
    // Hooks see real Request objects; without hooks we skip building one (it is not free).
    let request = new Request(url, init);
    let response: Response | undefined;
    for (const hook of hooks.beforeRequest ?? []) {
      const result = await hook(request);
      if (result instanceof Response) {
        response = result;
        break;
      }
      if (result instanceof Request) request = result;
    }
    response ??= await this.#fetch(request);
    for (const hook of hooks.afterResponse ?? []) {
      const result = await hook(request, response);
      if (result instanceof Response) response = result;
    }
    return response;
  }

  /** The body as UTF-8 text, read chunk by chunk and never past `maxResponseBytes`. */
  async #read(response: Response, label: string, attempt: Attempt): Promise<string> {
    const limit = this.maxResponseBytes;
    const declared = response.headers.get('content-length');
    if (declared !== null && Number(declared) > limit) {
      response.body?.cancel().catch(ignore);
      throw tooLarge(response, label, limit);
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    attempt.reader = reader;
    let first: Uint8Array | undefined;
    let chunks: Uint8Array[] | undefined;
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(ignore);
        throw tooLarge(response, label, limit);
      }
      if (!first) first = value;
      else (chunks ??= [first]).push(value);
    }
    attempt.reader = undefined;
    if (!first) return '';
    if (!chunks) return decoder.decode(first);
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return decoder.decode(bytes);
  }
}

/** An AbortController lent to one attempt at a time, and how many attempts it has served. */
interface Lease {
  controller: AbortController;
  uses: number;
}

/**
 * Lends AbortControllers to attempts (see the module notes). Each attempt leaves one listener on
 * the signal it used (undici removes it when the attempt's request is collected), so a
 * controller is retired after `MAX_USES` attempts and adding a listener stays cheap (16 measured
 * best; DECISIONS.md).
 */
class SignalLender {
  static readonly MAX_USES = 16;
  static readonly MAX_IDLE = 8;
  readonly #idle: Lease[] = [];

  lend(): Lease {
    const lease = this.#idle.pop() ?? { controller: new AbortController(), uses: 0 };
    lease.uses++;
    return lease;
  }

  /** Only for an attempt that ended before its deadline: its controller was not aborted. */
  giveBack(lease: Lease): void {
    if (lease.uses < SignalLender.MAX_USES && this.#idle.length < SignalLender.MAX_IDLE) this.#idle.push(lease);
  }
}

/** A 3xx (or a browser's opaque redirect) is refused: nothing is sent to `Location`. */
function refuseRedirect(response: Response, url: string, label: string): void {
  // An opaque redirect (browsers, `redirect: 'manual'`) always has status 0: other statuses need
  // no second getter call on the hot path.
  const status = response.status;
  if ((status < 300 || status > 399) && (status !== 0 || response.type !== 'opaqueredirect')) return;
  response.body?.cancel().catch(ignore);
  const raw = response.headers.get('location');
  let location = raw;
  if (raw !== null) {
    try {
      location = redactText(new URL(raw, url).href);
    } catch {
      location = redactText(raw);
    }
  }
  throw new RedirectRefusedError({
    message: `${label} answered ${response.status}, a redirect to ${location ?? '(no Location header)'}: not followed, so credentials, payment headers and the body stay with ${new URL(url).origin}`,
    status: response.status,
    location,
    headers: response.headers,
  });
}

function tooLarge(response: Response, label: string, limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError({
    message: `${label} answered ${response.status} with a body larger than maxResponseBytes (${limit} bytes); reading stopped there`,
    status: response.status,
    limit,
    headers: response.headers,
  });
}

/** fetch's own message (often just "fetch failed") plus the system error code of its cause. */
function describeFailure(cause: unknown): string {
  const message = String((cause as Error)?.message ?? cause);
  const code = ((cause as { cause?: { code?: unknown } })?.cause?.code ?? '') as string;
  return redactText(typeof code === 'string' && code && !message.includes(code) ? `${message} (${code})` : message);
}

/** Origin and path of a request URL (no query: it could carry anything), for messages. */
function target(url: string): { origin: string; url: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin, url: redactText(`${u.origin}${u.pathname}`) };
  } catch {
    return { origin: '(invalid URL)', url: '(invalid URL)' };
  }
}

const FAILURE_TEXT: Record<ConnectionFailure, string> = {
  refused: 'connection refused',
  dns: 'host not found (DNS)',
  tls: 'TLS handshake failed',
  timeout: 'connection timed out',
  reset: 'connection dropped',
  unreachable: 'network unreachable',
  network: 'network error',
};

const TLS_CODE = /^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO$)/;

/** The kind of a fetch failure, from the system error code in its cause chain (fetch says only "fetch failed"). */
export function classifyFailure(error: unknown): { cause: ConnectionFailure; syscode?: string } {
  const codes: string[] = [];
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 4) return;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    visit((e as { cause?: unknown }).cause, depth + 1);
    const inner = (e as { errors?: unknown }).errors; // AggregateError: one per address tried
    if (Array.isArray(inner)) for (const x of inner.slice(0, 4)) visit(x, depth + 1);
  };
  visit(error, 0);
  const message = String((error as Error)?.message ?? '');
  for (const code of codes) {
    if (code === 'ECONNREFUSED') return { cause: 'refused', syscode: code };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL' || code === 'EAI_NODATA')
      return { cause: 'dns', syscode: code };
    if (TLS_CODE.test(code)) return { cause: 'tls', syscode: code };
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return { cause: 'timeout', syscode: code };
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
      return { cause: 'reset', syscode: code };
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return { cause: 'unreachable', syscode: code };
  }
  if (/certificate|ssl|tls/i.test(message)) return { cause: 'tls', ...(codes[0] ? { syscode: codes[0] } : {}) };
  // fetch itself refuses the ports browsers block (9, 25, 6000 …), with no system error.
  if (String((error as { cause?: { message?: unknown } })?.cause?.message ?? '') === 'bad port') return { cause: 'network', syscode: 'BAD_PORT' };
  return { cause: 'network', ...(codes[0] ? { syscode: codes[0] } : {}) };
}
