/**
 * The mock over real HTTP: a node:http server that hands each request to the pipeline as a
 * plain record and writes the record it gets back. No web `Request`/`Response` is built on the
 * way (building them per request alone costs most of a bare server's rate).
 *
 * @module
 */
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Chaos, ChaosOptions } from '../http/chaos.js';
import { refuseForeign } from './local.js';
import { type MockPipeline, createPipeline } from '../http/pipeline.js';
import type { RateLimitOptions } from '../http/ratelimit.js';
import { type HeaderReader, type MockRequest, type MockResponse, errorResult } from '../http/route.js';
import { ALL_ROUTES } from '../routes.js';
import type { MockClock } from '../state/clock.js';
import { type MockState, type MockStateOptions, createMockState, isLoopbackHost } from '../state/index.js';
import type { PaywallOptions } from '../x402/paywall-terms.js';
import { readStateFile, writeStateFile } from '../state/persist.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /**
   * Address to bind. Anything but loopback exposes the demo key and the `/__mock/` control routes.
   * On loopback (the default) requests must name a loopback host in `Host` (DNS rebinding is
   * refused); bound elsewhere on purpose, any Host is accepted. Either way a state-changing
   * request from a foreign web origin (`Origin` header) is refused with 403.
   * @default '127.0.0.1'
   */
  host?: string;
  /** Wrap successes in `{ data }` like the live service, so its official clients work. @default false */
  envelope?: boolean;
  /** Seed of ids, secrets, the market and chaos. @default 1 */
  seed?: number;
  /** Seeded fault injection. @default false */
  chaos?: ChaosOptions | false;
  /** The spec's per-IP limits (default); false turns them off; an object changes numbers or the window. */
  rateLimits?: false | RateLimitOptions;
  /** Where webhooks may really be sent: 'loopback' or 'any'. @default 'loopback' */
  webhookTargets?: MockStateOptions['webhookTargets'];
  /** Options of the paid side (/x402/tron/*), e.g. `{ version: 1 }` for v1-only clients. */
  x402?: PaywallOptions;
  /** 'real', 'manual', or your own MockClock. @default 'real' */
  clock?: 'real' | 'manual' | MockClock;
  /** Delays of the simulated steps (mock-clock ms). */
  timings?: MockStateOptions['timings'];
  /** Market overrides (providers, drift). */
  market?: MockStateOptions['market'];
  /** Opening balance of the demo account. @default 1 000 TRX and 100 USDT */
  demoBalance?: MockStateOptions['demoBalance'];
  /**
   * History kept: orders (with fills), webhook deliveries, idempotency keys, chain transactions;
   * one number for all or per kind; oldest finished records are forgotten first.
   * @default RETENTION_DEFAULTS (10 000 orders and deliveries, 50 000 keys and transactions)
   */
  retain?: MockStateOptions['retain'];
  /** Per-attempt timeout of webhook deliveries, real ms. @default 10 000 */
  webhookTimeoutMs?: number;
  /**
   * Keep the simulated world in this file: restored at start when it exists, saved atomically
   * (temporary file + rename) shortly after requests and on close. Without it the mock is in
   * memory only. See the mock README's "State file".
   */
  stateFile?: string;
  /**
   * Called once per answered request with its method, path, status and duration (ms): the
   * request log of `trx-rent mock`. Never sees headers or bodies.
   */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Serve an existing state instead of creating one (it is not disposed on close). */
  state?: MockState;
  /** Largest request body accepted, in bytes; a larger one is a 413. @default 1 MiB */
  maxBodyBytes?: number;
  /**
   * Answer browsers' CORS requests (preflights, `Access-Control-Allow-Origin: *`). Off by default:
   * any web page the developer visits could otherwise drive the mock's demo account.
   * @default false
   */
  cors?: boolean;
}

/** One answered request, as {@link MockServerOptions.onRequest} gets it. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** HTTP status sent; 0 when the connection was dropped (chaos) before an answer. */
  status: number;
  /** Time from the request's arrival to its answer, in ms. */
  ms: number;
}

/** A running mock server. */
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
  /** The pipeline this server runs (call `pipeline.handle` to answer a request record in-process). */
  pipeline: MockPipeline;
  /** Fault injection on this server (`chaos.setRules([{ route: 'POST /wallet/broadcasttransaction', kind: 'drop', times: 1 }])`). */
  chaos: Chaos;
  /** Write the state file now (no-op without `stateFile`). */
  save(): void;
  /** Stop listening, drop open connections, save the state file, and dispose the state if the server created it. */
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy, retry-after, idempotent-replayed, x-mock-chaos, payment-required, payment-response, x-payment-response',
};

/** Serve the mock over real HTTP on loopback (node:http, no framework). */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const ownState = !options.state;
  const restore = !options.state && options.stateFile ? readStateFile(options.stateFile) : undefined;
  const state =
    options.state ??
    createMockState({
      ...(restore ? { restore } : {}),
      seed: options.seed,
      clock: options.clock,
      timings: options.timings,
      market: options.market,
      demoBalance: options.demoBalance,
      webhookTargets: options.webhookTargets,
      retain: options.retain,
      webhookTimeoutMs: options.webhookTimeoutMs,
    });
  const pipeline = createPipeline(state, ALL_ROUTES, { envelope: options.envelope, chaos: options.chaos, rateLimits: options.rateLimits, x402: options.x402 });
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const cors = options.cors ?? false;
  const host = options.host ?? '127.0.0.1';
  let fallbackOrigin = '';
  const exposed = !isLoopbackHost(host);
  // Saving: at most every 250 ms after a request (the world may have changed), and on close.
  const stateFile = options.stateFile;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = undefined;
    if (stateFile) writeStateFile(stateFile, state.snapshot());
  };
  const changed = stateFile
    ? () => {
        saveTimer ??= setTimeout(() => {
          try {
            save();
          } catch {
            // A failed save is retried after the next request; close() reports it.
          }
        }, 250);
      }
    : undefined;
  const onRequest = options.onRequest;
  const answered = changed || onRequest ? (entry: RequestLogEntry) => (changed?.(), onRequest?.(entry)) : undefined;
  if (stateFile && !restore) save(); // the file exists from the start
  const answers = new AnswerBatch();
  const server = createServer((req, res) => {
    serve(pipeline, req, res, { maxBody, cors, fallbackOrigin, exposed, answered, answers });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    // Nothing listens (the port is taken): the state this call made must not keep its timers.
    if (ownState) state.dispose();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  fallbackOrigin = url;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    apiKey: state.demo.api_key,
    jwt: state.demo.jwt,
    memo: state.demo.memo,
    state,
    pipeline,
    chaos: pipeline.chaos,
    save,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close(() => resolve());
        server.closeAllConnections();
        try {
          if (stateFile) save();
        } catch (error) {
          reject(error);
        } finally {
          if (ownState) state.dispose();
        }
      });
      return closing;
    },
  };
}

/** node:http's already lower-cased header object, read through the pipeline's interface. */
class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

interface ServeOptions {
  maxBody: number;
  cors: boolean;
  fallbackOrigin: string;
  /** Bound to a non-loopback address on purpose: any Host name is accepted. */
  exposed: boolean;
  /** Told of each answered request (request log, state saving). */
  answered: ((entry: RequestLogEntry) => void) | undefined;
  /** Sends the pipeline's answers (see {@link AnswerBatch}). */
  answers: AnswerBatch;
}

/**
 * The answers computed in one turn of the event loop, written together at its end (check
 * phase). Writing each answer as soon as it was ready woke the client for every response:
 * a local client (a test suite, autocannon) sleeps while the mock works, and a loopback write
 * to a sleeping reader costs the writer the wake-up. Profiled under 32 connections, that write
 * was twice a bare server's per response. Written together, one wake-up serves the turn's
 * answers. An answer waits at most for the other requests read in the same turn; errors,
 * refusals and dropped connections are not delayed.
 */
class AnswerBatch {
  #pending: Array<{ res: ServerResponse; response: MockResponse; cors: boolean }> = [];
  readonly #flush = () => {
    const pending = this.#pending;
    this.#pending = [];
    for (const { res, response, cors } of pending) write(res, response, cors, false);
  };

  send(res: ServerResponse, response: MockResponse, cors: boolean): void {
    if (this.#pending.length === 0) setImmediate(this.#flush);
    this.#pending.push({ res, response, cors });
  }
}

const HOST = /^[A-Za-z0-9.:[\]-]{1,255}$/;

function serve(pipeline: MockPipeline, req: IncomingMessage, res: ServerResponse, options: ServeOptions): void {
  const method = req.method ?? 'GET';
  if (options.answered) observe(req, res, options.answered);
  const origin = req.headers.origin;
  const refused = refuseForeign(method, req.headers.host, Array.isArray(origin) ? origin.join(', ') : origin, { exposed: options.exposed });
  if (refused) {
    // Nothing of the body is read or acted on; the connection closes after the answer.
    write(res, refused, options.cors, true);
    req.resume();
    return;
  }
  if (method === 'OPTIONS' && options.cors) {
    res.writeHead(204, {
      ...CORS,
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
    res.end();
    return;
  }
  // Origin-form only ('/path?query'); an absolute-form target is read for its path alone.
  let target = req.url ?? '/';
  if (!target.startsWith('/')) {
    try {
      const parsed = new URL(target);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      target = `/${target}`;
    }
  }
  const q = target.indexOf('?');
  const host = req.headers.host;
  const record: MockRequest = {
    method,
    path: q === -1 ? target : target.slice(0, q),
    query: q === -1 ? '' : target.slice(q + 1),
    headers: new NodeHeaders(req.headers),
    body: '',
    ip: req.socket.remoteAddress ?? '127.0.0.1',
    origin: host && HOST.test(host) ? `http://${host}` : options.fallbackOrigin,
  };
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) {
    dispatch(pipeline, record, req, res, options.cors, options.answers);
    return;
  }
  if (length !== undefined && Number(length) > options.maxBody) {
    tooLarge(req, res, options);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > options.maxBody) {
      over = true;
      chunks.length = 0;
      tooLarge(req, res, options);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return;
    record.body = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    dispatch(pipeline, record, req, res, options.cors, options.answers);
  });
  req.on('error', () => res.destroy());
}

/** Report the request once it is answered (or its connection dropped): method, path, status, ms. */
function observe(req: IncomingMessage, res: ServerResponse, answered: (entry: RequestLogEntry) => void): void {
  const started = performance.now();
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  let done = false;
  const report = () => {
    if (done) return;
    done = true;
    answered({
      method: req.method ?? 'GET',
      path: q === -1 ? target : target.slice(0, q),
      status: res.headersSent ? res.statusCode : 0,
      ms: performance.now() - started,
    });
  };
  res.once('finish', report);
  res.once('close', report);
}

/** 413 with the envelope, then close: the rest of the body is read and thrown away, not buffered. */
function tooLarge(req: IncomingMessage, res: ServerResponse, options: ServeOptions): void {
  write(res, errorResult(413, 'VALIDATION_ERROR', `Request body larger than ${options.maxBody} bytes`, { field: 'body' }), options.cors, true);
  req.resume();
  // A client that never stops sending loses the connection soon after its answer.
  setTimeout(() => req.socket.destroy(), 2_000).unref();
}

function dispatch(pipeline: MockPipeline, record: MockRequest, req: IncomingMessage, res: ServerResponse, cors: boolean, answers: AnswerBatch): void {
  // `then`, not an async function: one promise reaction per request rather than a suspended frame.
  let pending: Promise<MockResponse | null>;
  try {
    pending = pipeline.handle(record);
  } catch {
    pending = Promise.reject(new Error('pipeline threw'));
  }
  pending.then(
    (response) => deliver(response ?? errorResult(404, 'NOT_FOUND', `No route ${record.method} ${record.path}`), req, res, cors, answers),
    () => deliver(errorResult(500, 'INTERNAL_ERROR', 'Unexpected error in the mock server'), req, res, cors, answers),
  );
}

function deliver(response: MockResponse, req: IncomingMessage, res: ServerResponse, cors: boolean, answers: AnswerBatch): void {
  if (response.drop) {
    // Chaos "drop": the work is committed; the client sees the connection die.
    req.socket.destroy();
    return;
  }
  answers.send(res, response, cors);
}

function write(res: ServerResponse, response: MockResponse, cors: boolean, close: boolean): void {
  if (res.headersSent) return;
  // Object.assign, not a spread: a spread copy that then gains a key (content-length) took 1-1.7 us on Node 20, 0.05 us this way.
  const headers: Record<string, string | number> = cors ? Object.assign({}, CORS, response.headers) : Object.assign({}, response.headers);
  headers['content-length'] = Buffer.byteLength(response.body);
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.body);
}
