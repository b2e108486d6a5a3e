/**
 * The node:http server's guard against web pages: the mock holds a demo key with every
 * permission and control routes that mint keys and credit balances, so a page the developer
 * visits must not drive it.
 *
 * - DNS rebinding: a page on `evil.example` whose name is re-pointed at 127.0.0.1 reaches the
 *   mock as "same origin", but its requests carry `Host: evil.example`. The Host header must
 *   be a loopback name (`127.0.0.1`, `localhost`, `[::1]`, with any port), unless the mock was
 *   bound to another address on purpose (`host` option, `trx-rent mock --host`): the names it is
 *   reached by are then the user's to choose.
 * - Cross-origin writes: a form or a `fetch` with `text/plain` from any site is sent without a
 *   preflight. A state-changing request (anything but GET, HEAD, OPTIONS) whose `Origin` is
 *   neither a loopback origin nor the mock's own (`http://` + its Host) is refused, `cors` or
 *   not. Tools send no Origin and are unaffected.
 *
 * The fetch and msw adapters do not apply it: they run inside the page or process that calls
 * them (no socket another site can reach), and their Host is whatever URL the test chose.
 *
 * @module
 */
import { isLoopbackHost } from '../state/index.js';
import type { MockResponse } from '../http/route.js';
import { errorResult } from '../http/route.js';

/** What the guard needs to know about the server. */
export interface LocalGuardOptions {
  /** The server was bound to a non-loopback address on purpose: any Host name is accepted. */
  exposed: boolean;
}

/** The hostname of a Host header value (`[::1]:8787` -> `::1`, `localhost:80` -> `localhost`). */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(1, end);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The Host header value checked last and its verdict: a client sends the same one on every request. */
let lastHost: string | undefined;
let lastLoopback = false;

/** Whether a Host header value names a loopback host (the last value's verdict is remembered). */
function loopbackHostHeader(host: string): boolean {
  if (host !== lastHost) {
    lastLoopback = isLoopbackHost(hostnameOf(host.trim()));
    lastHost = host;
  }
  return lastLoopback;
}

/**
 * The refusal for a request that did not come from this machine's tools or pages, or undefined
 * to let it through. `host` and `origin` are the raw header values (undefined when absent).
 */
export function refuseForeign(method: string, host: string | undefined, origin: string | undefined, options: LocalGuardOptions): MockResponse | undefined {
  if (host !== undefined && !options.exposed && !loopbackHostHeader(host)) {
    return errorResult(
      403,
      'FORBIDDEN',
      'The Host header is not a loopback name: this mock answers only requests addressed to 127.0.0.1, localhost or [::1] (start it with --host to serve other names)',
      {
        field: 'Host',
      },
    );
  }
  if (origin === undefined || SAFE_METHODS.has(method) || isLocalOrigin(origin, host)) return undefined;
  return errorResult(403, 'FORBIDDEN', "Cross-origin request refused: a web page on another origin may not change the mock's state", { field: 'Origin' });
}

/** A loopback origin (any port), or the mock's own origin as its Host names it. */
function isLocalOrigin(origin: string, host: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file:// page) and garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopbackHost(url.hostname)) return true;
  return host !== undefined && url.host === host.trim().toLowerCase();
}
