import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { ERROR_CODES } from '../../src/schemas/errors.js';
import { type MockServer, type MockServerOptions, createManualClock, startMockServer } from '../../src/mock/index.js';

/** A fixed start time for manual clocks: polls and drift are then the same on every run. */
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Valid TRON addresses for targets and withdrawals. */
export const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
export const USER_KEY = '1'.repeat(64);
export const USER_ADDRESS = privateKeyToTronAddress(USER_KEY);
/** Base58 shape but a wrong checksum. */
export const BAD_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u';

export async function manualServer(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({ clock: createManualClock(T0), rateLimits: false, ...options });
}

export interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** Plain fetch against the mock, like curl would do. */
export async function raw(
  base: string,
  method: string,
  path: string,
  init: { key?: string; jwt?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<RawResult> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers['x-api-key'] = init.key;
  if (init.jwt) headers.authorization = `Bearer ${init.jwt}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Asserts-friendly check that a body is a well-formed spec error envelope with a known code. */
export function isErrorEnvelope(json: any): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const keys = Object.keys(json);
  if (keys.length !== 1 || keys[0] !== 'error') return false;
  const e = json.error;
  if (!e || typeof e !== 'object' || typeof e.message !== 'string' || !e.message) return false;
  if (!(ERROR_CODES as readonly string[]).includes(e.code)) return false;
  if (e.details !== undefined && (typeof e.details !== 'object' || e.details === null || Array.isArray(e.details))) return false;
  return Object.keys(e).every((k) => k === 'code' || k === 'message' || k === 'details');
}

export interface ReceivedHook {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A webhook receiver on 127.0.0.1; `status` decides each reply (default 200). */
export async function startReceiver(status: (n: number) => number = () => 200) {
  const received: ReceivedHook[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(status(received.length)).end('ok');
      for (const w of waiters.splice(0)) {
        if (received.length >= w.n) w.resolve();
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `n` deliveries arrived; rejects after `ms`. */
    waitFor(n: number, ms = 5_000): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${n} webhook deliveries after ${ms} ms`)), ms);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
