import { ConnectionError, TimeoutError } from '../errors/index.js';
import { redactText } from './log.js';

/**
 * One HTTP attempt on the platform's fetch: a deadline that covers the headers *and* the body,
 * the caller's AbortSignal, and the user's hooks. It returns the response with its body read
 * as text, or throws TimeoutError / ConnectionError (or the caller's abort reason, untouched).
 *
 * This replaced ky (see the commit that introduced it): the request loop in client.ts already
 * owns retries, errors and timeouts, and ky's per-call Request construction and clone cost
 * 1.5x-2x a raw fetch on loopback, more than every layer of ours together.
 */

export interface Hooks {
  /** Runs before every attempt; may return a replacement Request, or a Response to skip the network. */
  beforeRequest?: Array<(request: Request) => Request | Response | void | Promise<Request | Response | void>>;
  /** Runs after every response (including error statuses); may return a replacement Response. */
  afterResponse?: Array<(request: Request, response: Response) => Response | void | Promise<Response | void>>;
}

export interface AttemptInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  hooks?: Hooks | undefined;
  /** For messages only, e.g. `GET /api/v1/prices`. */
  label: string;
}

export async function sendOnce(
  fetchImpl: typeof fetch,
  url: string,
  init: AttemptInit,
): Promise<{ response: Response; text: string }> {
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, init.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
  const requestInit: RequestInit = { method: init.method, headers: init.headers, signal };
  if (init.body !== undefined) requestInit.body = init.body;
  try {
    let response: Response | undefined;
    if (init.hooks?.beforeRequest?.length || init.hooks?.afterResponse?.length) {
      // Hooks see real Request objects; without hooks we skip building one (it is not free).
      let request = new Request(url, requestInit);
      for (const hook of init.hooks.beforeRequest ?? []) {
        const result = await hook(request);
        if (result instanceof Response) {
          response = result;
          break;
        }
        if (result instanceof Request) request = result;
      }
      response ??= await fetchImpl(request);
      for (const hook of init.hooks.afterResponse ?? []) {
        const result = await hook(request, response);
        if (result instanceof Response) response = result;
      }
    } else {
      response = await fetchImpl(url, requestInit);
    }
    return { response, text: await response.text() };
  } catch (cause) {
    if (init.signal?.aborted) throw cause; // the caller cancelled: theirs, not a network fault
    if (timedOut) throw new TimeoutError(`${init.label} timed out after ${init.timeoutMs} ms`, cause);
    throw new ConnectionError(`${init.label} failed: ${redactText(String((cause as Error)?.message ?? cause))}`, cause);
  } finally {
    clearTimeout(timer);
  }
}
