/**
 * From a response to a result or a typed error, the same way for every client: the error
 * envelope (also on a 2xx) becomes the error class of its code, the `{data}` envelope is
 * unwrapped, and the result is checked with the endpoint's schema (INVALID_RESPONSE otherwise).
 * Every error keeps the status, the headers and the request id.
 * @module
 */
import type * as z from 'zod/mini';
import { TrxRentError, errorFromBody, readRequestId } from '../errors/index.js';
import { isErrorEnvelope, unwrapEnvelope } from '../schemas/common.js';
import { englishIssues } from '../schemas/issues.js';
import { parseRetryAfter } from './retry.js';
import type { AttemptInit, Transport } from './transport.js';
import type { FastCheck } from '../api/types.js';

/** What `parseJson` returns for a body that is not JSON. */
export const INVALID_JSON: unique symbol = Symbol('invalid-json');

/** The parsed body; undefined when empty; INVALID_JSON when it is not JSON. */
export function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}

/**
 * The result of a response, checked with `schema` (after its fast `check`, when it has one), or
 * the typed error it stands for.
 * `label` (method and path, e.g. `GET /api/v1/…`) names the request in messages; `details` are added to
 * the details of an INVALID_RESPONSE error.
 */
export function decodeResponse<S extends z.ZodMiniType>(
  schema: S,
  response: Response,
  text: string,
  label: string,
  details?: Record<string, unknown>,
  check?: FastCheck | null,
): z.output<S> {
  const body = parseJson(text);
  if (!response.ok || isErrorEnvelope(body)) throw responseError(response, body);
  if (body === INVALID_JSON) throw invalidResponse(response, body, `${label} answered ${response.status} with a body that is not JSON`, details);
  const value = unwrapEnvelope(body);
  // The build-time check of the schema (src/api/account-checks.gen.ts): true only when zod would
  // return this very value, so zod's copy is skipped; otherwise zod decides.
  if (check && check(value)) return value as z.output<S>;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  if (body === undefined) throw invalidResponse(response, body, `${label} answered ${response.status} without a body`, details);
  // zod/mini keeps no locale: the failure is described again with zod's English messages.
  const issues = englishIssues(schema, value);
  const issue = issues[0];
  throw invalidResponse(response, body, `${label}: unexpected response shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, {
    issues,
    ...details,
  });
}

/** The typed error for an error answer (its envelope, else its status), with Retry-After when sent. */
export function responseError(response: Response, body: unknown): TrxRentError {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return errorFromBody(response.status, body === INVALID_JSON ? undefined : body, response.headers, retryAfterMs);
}

function invalidResponse(response: Response, body: unknown, message: string, details?: Record<string, unknown>): TrxRentError {
  return new TrxRentError({
    code: 'INVALID_RESPONSE',
    message,
    status: response.status,
    headers: response.headers,
    requestId: readRequestId(response.headers, body),
    details,
  });
}

/**
 * One JSON request to a third-party JSON API (a TRON full node, the GasFree relayer): the shared
 * transport, no retries, no credentials. A non-2xx answer or a body that is not JSON is an
 * INVALID_RESPONSE error (these services do not speak the API's error envelope).
 */
export async function fetchJson(
  transport: Transport,
  url: string,
  init: Pick<AttemptInit, 'timeoutMs' | 'signal'> & { method?: 'GET' | 'POST'; body?: string | undefined },
): Promise<unknown> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const target = new URL(url);
  const label = `${method} ${target.origin}${target.pathname}`;
  const { response, text } = await transport.send(url, { method, headers, body: init.body, timeoutMs: init.timeoutMs, signal: init.signal, label });
  const body = parseJson(text);
  if (!response.ok || body === INVALID_JSON || body === undefined) {
    throw new TrxRentError({
      code: 'INVALID_RESPONSE',
      message: `${label} answered ${response.status}${response.ok ? ' without JSON' : ''}`,
      status: response.status,
      headers: response.headers,
    });
  }
  return body;
}
