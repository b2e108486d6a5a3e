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
 * It returns the response with its body read as text. It replaced ky (see the commit that
 * introduced it): ky's per-call Request construction and clone cost 1.5x-2x a raw fetch on
 * loopback, more than every layer of ours together.
 *
 * The deadline without a caller signal is a timer raced against the fetch, not an AbortSignal:
 * handing fetch a signal costs undici about 20 µs per request (a fifth of a loopback call). A
 * request that misses its deadline is abandoned, and its connection released as soon as it
 * answers (the body is cancelled) or the dispatcher's own header timeout ends it. With a caller
 * signal, the deadline aborts the request itself.
 * @module
 */
import { ConnectionError, RedirectRefusedError, ResponseTooLargeError, TimeoutError, isTrxRentError } from '../errors/index.js';
import { deadline } from './deadline.js';
import { redactText } from './log.js';

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
  /** For messages only, e.g. `GET /api/v1/prices`. */
  label: string;
}

export interface Exchange {
  response: Response;
  /** The body, decoded as UTF-8 (empty for no body). */
  text: string;
}

/** What the deadline needs to cancel an attempt in flight. */
interface Attempt {
  pending?: Promise<Response>;
  reader?: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

const decoder = new TextDecoder();
const ignore = () => undefined;

export class Transport {
  readonly maxResponseBytes: number;
  readonly #fetch: typeof fetch;
  readonly #hooks: Hooks | undefined;

  constructor(options: TransportOptions = {}) {
    const max = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`maxResponseBytes must be a positive integer, not ${String(options.maxResponseBytes)}`);
    this.maxResponseBytes = max;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#hooks = options.hooks?.beforeRequest?.length || options.hooks?.afterResponse?.length ? options.hooks : undefined;
  }

  /** One attempt: see the module comment. Rejects with TrxRentError subclasses, or the caller's abort reason. */
  send(url: string, init: AttemptInit): Promise<Exchange> {
    let controller: AbortController | undefined;
    let signal = init.signal;
    if (signal) {
      controller = new AbortController();
      signal = AbortSignal.any([signal, controller.signal]);
    }
    const requestInit: RequestInit = { method: init.method, headers: init.headers, redirect: 'manual' };
    if (init.body !== undefined) requestInit.body = init.body;
    if (signal) requestInit.signal = signal;
    const attempt: Attempt = {};
    return new Promise<Exchange>((resolve, reject) => {
      const timer = deadline(init.timeoutMs, () => {
        controller?.abort();
        attempt.reader?.cancel().catch(ignore);
        // Without a signal the request cannot be aborted: release its connection when it answers.
        if (!controller) attempt.pending?.then((late) => late.body?.cancel().catch(ignore), ignore);
        reject(new TimeoutError(`${init.label} timed out after ${init.timeoutMs} ms`));
      });
      // Whatever the attempt does after the deadline (it is cancelled) settles nothing any more.
      this.#attempt(url, requestInit, init.label, attempt).then(
        (exchange) => {
          timer.cancel();
          resolve(exchange);
        },
        (cause: unknown) => {
          timer.cancel();
          if (init.signal?.aborted) reject(cause); // the caller cancelled: theirs, not a network fault
          else if (isTrxRentError(cause)) reject(cause);
          else reject(new ConnectionError(`${init.label} failed: ${describeFailure(cause)}`, cause));
        },
      );
    });
  }

  async #attempt(url: string, init: RequestInit, label: string, attempt: Attempt): Promise<Exchange> {
    attempt.pending = this.#hooks ? this.#withHooks(this.#hooks, url, init) : this.#fetch(url, init);
    const response = await attempt.pending;
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

/** A 3xx (or a browser's opaque redirect) is refused: nothing is sent to `Location`. */
function refuseRedirect(response: Response, url: string, label: string): void {
  if ((response.status < 300 || response.status > 399) && response.type !== 'opaqueredirect') return;
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
