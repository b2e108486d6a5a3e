/**
 * Base URLs and request URLs, shared by the account client and the x402 client.
 * @module
 */
import { InsecureTransportError, TrxRentError } from '../errors/index.js';
import { isLoopbackHost } from '../internal/net.js';

/** `base + path`, plus a query string of the defined values (undefined ones are left out). */
export function buildUrl(base: string, path: string, query?: Record<string, unknown>): string {
  let url = base + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/**
 * A service origin as given by the caller, checked and normalised: trailing slashes and a
 * copy-pasted API prefix (`apiPrefix`, e.g. `/api/v1`) are removed so paths can be appended.
 * Throws CONFIGURATION_ERROR when it is missing or not an http(s) URL.
 */
export function parseBaseUrl(value: unknown, apiPrefix: string, hint: string): URL {
  if (value === undefined || value === null || value === '') {
    throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `No base URL: ${hint} (there is no default host).` });
  }
  let url: URL;
  const text = String(value);
  try {
    url = new URL(text);
  } catch {
    // A malformed `user:pa/ss@host` is no URL either: never echo text that may hold a password.
    const shown = text.includes('@') ? '(not shown: it contains "@")' : text;
    throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `baseUrl is not a URL: ${shown}`, details: { field: 'baseUrl' } });
  }
  if (url.username !== '' || url.password !== '') {
    // The API takes its key in a header; a password in the URL would be sent as Basic auth
    // and echoed by every message that names the URL.
    throw new TrxRentError({
      code: 'CONFIGURATION_ERROR',
      message: `baseUrl must not carry a user name or password (user:pass@${url.host}); pass the API key with { apiKey } or TRX_RENT_API_KEY`,
      details: { field: 'baseUrl' },
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `baseUrl must be an http(s) URL, not ${url.protocol}`, details: { field: 'baseUrl' } });
  }
  url.search = '';
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(apiPrefix)) path = path.slice(0, -apiPrefix.length);
  url.pathname = path;
  return url;
}

/** The URL without a trailing slash, ready for `base + '/api/v1/…'`. */
export function baseString(url: URL): string {
  return url.href.replace(/\/+$/, '');
}

/**
 * The error to throw before sending `what` (an API key, a JWT) to `url`, or undefined when that
 * is safe: https, plain http to a loopback host, or plain http allowed explicitly.
 */
export function insecureTransport(url: URL, what: string, allowInsecureHttp: boolean | undefined): InsecureTransportError | undefined {
  if (url.protocol !== 'http:' || allowInsecureHttp || isLoopbackHost(url.hostname)) return undefined;
  return new InsecureTransportError(
    `Refusing to send ${what} over plain http:// to ${url.host}: anyone on the path could read it. ` +
      'Use https://, or pass { allowInsecureHttp: true } for a trusted network (plain http to localhost is always allowed).',
  );
}
