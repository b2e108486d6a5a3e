import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RequestHandler, getResponse } from 'msw';
import type { ChaosOptions } from './rules/chaos.js';
import type { RateLimitOptions } from './rules/ratelimit.js';
import { createHandlers, notFound } from './handlers/index.js';
import { errorResponse, responseText, setClientIp } from './handlers/route.js';
import type { MockClock } from './state/clock.js';
import type { PaidMockOptions } from './x402/index.js';
import { type MockState, type MockStateOptions, createMockState } from './state/index.js';

export interface MockServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default '127.0.0.1' (loopback only). */
  host?: string;
  /** Wrap successes in `{ data }` like the live service, so its official clients work. */
  envelope?: boolean;
  seed?: number;
  chaos?: ChaosOptions | false;
  /** false turns limits off; an object changes numbers or the window. */
  rateLimits?: false | RateLimitOptions;
  /** Where webhooks may really be sent: 'loopback' (default) or 'any'. */
  webhookTargets?: MockStateOptions['webhookTargets'];
  /** Options of the paid side (/x402/tron/*), e.g. `{ version: 1 }` for v1-only clients. */
  x402?: PaidMockOptions;
  /** 'real' (default), 'manual', or your own MockClock. */
  clock?: 'real' | 'manual' | MockClock;
  timings?: MockStateOptions['timings'];
  market?: MockStateOptions['market'];
  demoBalance?: MockStateOptions['demoBalance'];
  /** Serve an existing state instead of creating one (it is not disposed on close). */
  state?: MockState;
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface MockServer {
  /** Origin to use as the SDK's baseUrl, e.g. `http://127.0.0.1:8787`. */
  url: string;
  port: number;
  /** The demo account's API key (every permission). */
  apiKey: string;
  /** A JWT for the demo account. */
  jwt: string;
  /** The demo account's deposit memo. */
  memo: string;
  state: MockState;
  handlers: RequestHandler[];
  close(): Promise<void>;
}

/** Serve the mock's msw handlers over real HTTP (node:http + msw's getResponse). */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const ownState = !options.state;
  const state =
    options.state ??
    createMockState({
      seed: options.seed,
      clock: options.clock,
      timings: options.timings,
      market: options.market,
      demoBalance: options.demoBalance,
      webhookTargets: options.webhookTargets,
    });
  const handlers = createHandlers(state, { envelope: options.envelope, chaos: options.chaos, rateLimits: options.rateLimits, x402: options.x402 });
  const candidates = indexHandlers(handlers);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const server = createServer((req, res) => {
    void serve(candidates, req, res, maxBody);
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    apiKey: state.demo.api_key,
    jwt: state.demo.jwt,
    memo: state.demo.memo,
    state,
    handlers,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        if (ownState) state.dispose();
      });
      return closing;
    },
  };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy, retry-after, idempotent-replayed, x-mock-chaos',
};

type Candidates = (method: string, url: string) => RequestHandler[];

/**
 * msw runs every handler's matcher in turn, and each costs several microseconds (request
 * clone, cookies, path-to-regexp), so a route late in the list would be slower than an early
 * one. This index keeps, per request, only the handlers whose method and path could match
 * (a deliberately loose superset of msw's own matching), in their original order; msw's
 * getResponse still does the real matching and runs the same handler objects.
 */
function indexHandlers(handlers: RequestHandler[]): Candidates {
  const entries = handlers.map((handler) => {
    const info = (handler as { info?: { method?: unknown; path?: unknown } }).info;
    // Anything this index does not fully understand (a RegExp, path-to-regexp modifiers) is always a candidate.
    if (!info || typeof info.method !== 'string' || typeof info.path !== 'string' || !/^[\w\-./*:~%]*$/.test(info.path)) {
      return { handler, test: () => true };
    }
    const method = info.method.toUpperCase();
    const source = info.path
      .split(/(\*|:[A-Za-z0-9_]+)/)
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    const pattern = new RegExp(`^${source}/?$`, 'i');
    return { handler, test: (m: string, url: string) => (method === 'ALL' || method === m) && pattern.test(url) };
  });
  return (method, url) => entries.filter((e) => e.test(method, url)).map((e) => e.handler);
}

async function serve(candidates: Candidates, req: IncomingMessage, res: ServerResponse, maxBody: number): Promise<void> {
  try {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBody) {
        await send(res, errorResponse(413, 'VALIDATION_ERROR', `Request body larger than ${maxBody} bytes`, { field: 'body' }), true);
        return;
      }
      chunks.push(chunk);
    }
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    const method = req.method ?? 'GET';
    let request: Request;
    try {
      // Path only, on a fixed origin: an absolute-form or '//' request target cannot change it.
      const target = req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`;
      const body = method === 'GET' || method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks);
      request = new Request(`http://mock.local${target}`, { method, headers, body });
    } catch {
      await send(res, errorResponse(404, 'NOT_FOUND', `No route ${method} ${req.url ?? ''}`));
      return;
    }
    setClientIp(request, req.socket.remoteAddress ?? '127.0.0.1');
    const url = `http://mock.local${new URL(request.url).pathname}`;
    const response = (await getResponse(candidates(method, url), request)) ?? notFound(request);
    if (response.type === 'error') {
      // Chaos "drop": the work is committed; the client sees the connection die.
      req.socket.destroy();
      return;
    }
    await send(res, response);
  } catch {
    if (!res.headersSent) await send(res, errorResponse(500, 'INTERNAL_ERROR', 'Unexpected error in the mock server'), true).catch(() => undefined);
    else res.destroy();
  }
}

async function send(res: ServerResponse, response: Response, close = false): Promise<void> {
  const text = responseText(response);
  const body = text !== undefined ? Buffer.from(text) : Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | number> = { ...CORS };
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  headers['content-length'] = body.length;
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(body);
}
