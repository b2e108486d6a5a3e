/**
 * A hostile loopback proxy in front of a server (the mock: its account API and its TRON node
 * share one origin): every request is forwarded as it is, except those a rule matches, which
 * meet a fault. Faults that model "the effect happened, the answer did not come back" forward
 * first, then drop, fail or hold the answer. Rules are tried in order, the first that matches
 * (and draws, for a `probability` below 1: seeded, so a failing run can be replayed) wins; every
 * request is logged with its body and the fault it met.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a matched request meets. */
export type Fault =
  /** Forwarded (the effect happens), then the connection is cut before any answer. */
  | 'lost'
  /** Forwarded, then answered 500 instead of the real answer. */
  | '5xx'
  /** Never forwarded: 429 with Retry-After: 0. */
  | '429'
  /** Forwarded, and the answer held: `holdMs`, then the connection is reset; never answered without `holdMs` (until the proxy closes). */
  | 'timeout'
  /** Never forwarded: the connection is reset (a request lost on the way). */
  | 'drop-request'
  /** Forwarded and answered normally (after `onMatch` and `holdMs`: a signal to the client process lands while the request is in flight). */
  | 'pass'
  /** Forwarded, and the answer's JSON body replaced by `rewrite(body)` (a lying service or node). */
  | 'rewrite';

/** A request as the rules and the log see it (the path without its query). */
export interface Seen {
  method: string;
  path: string;
  body: string;
}

/** A fault aimed at some requests. */
export interface Rule {
  /** Which requests: a RegExp tested on `METHOD /path` (`/^POST \/api\/v1\/broadcast$/`), or a predicate. */
  match: RegExp | ((req: Seen) => boolean);
  fault: Fault;
  /** Chance per matching request (seeded). @default 1 */
  probability?: number | undefined;
  /** Stop after this many faults. @default unlimited */
  times?: number | undefined;
  /** Called when a request meets this rule (e.g. to send the CLI SIGINT or SIGKILL). */
  onMatch?: (() => void) | undefined;
  /** For 'timeout': how long the answer is held before the reset. Otherwise: how long the request waits before it goes on. */
  holdMs?: number | undefined;
  /** For 'rewrite': the answer's body (parsed JSON) to what the client gets. */
  rewrite?: ((body: any) => unknown) | undefined;
}

/** A request the proxy saw: its body, the fault it met and the status the client got (none if it got no answer). */
export interface Logged extends Seen {
  fault?: Fault;
  status?: number;
}

export interface HostileProxy {
  url: string;
  /** Every request seen, in order. */
  log: Logged[];
  /** Replace the rules (`[]`: forward everything); their `times` count afresh. */
  setRules(rules: readonly Rule[]): void;
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const json = (res: ServerResponse, status: number, headers: Record<string, string>, error: { code: string; message: string }) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error }));
};

/** Start a proxy on 127.0.0.1 (a free port) in front of `target` (an http://127.0.0.1:port origin). */
export async function hostileProxy(target: string, options: { rules?: readonly Rule[]; seed?: number } = {}): Promise<HostileProxy> {
  const random = rng(options.seed ?? 1);
  let rules: Array<Rule & { hits: number }> = [];
  const setRules = (next: readonly Rule[]) => void (rules = next.map((r) => ({ ...r, hits: 0 })));
  setRules(options.rules ?? []);
  const log: Logged[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const pick = (seen: Seen) =>
    rules.find((r) => {
      const matches = typeof r.match === 'function' ? r.match(seen) : r.match.test(`${seen.method} ${seen.path}`);
      if (!matches || (r.times !== undefined && r.hits >= r.times)) return false;
      if (r.probability !== undefined && r.probability < 1 && random() >= r.probability) return false;
      r.hits++;
      return true;
    });

  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || k === 'host' || k === 'connection' || k === 'content-length' || k === 'transfer-encoding') continue;
      headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const response = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const entry: Logged = { method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, body: body.toString() };
    log.push(entry);
    const rule = pick(entry);
    const fault = rule?.fault;
    if (rule) {
      entry.fault = rule.fault;
      rule.onMatch?.();
      if (rule.holdMs && fault !== 'timeout') await new Promise((resolve) => setTimeout(resolve, rule.holdMs));
    }
    if (fault === '429') return void json(res, (entry.status = 429), { 'retry-after': '0' }, { code: 'RATE_LIMITED', message: 'Too many requests' });
    if (fault === 'drop-request') return void req.socket.destroy();
    const answer = await forward(req, body);
    // Accepted upstream, and the client never hears of it.
    if (fault === 'lost') return void req.socket.destroy();
    if (fault === 'timeout') {
      if (rule?.holdMs === undefined) return; // held until the client gives up or the proxy closes
      const timer = setTimeout(() => (timers.delete(timer), req.socket.destroy()), rule.holdMs);
      timers.add(timer);
      return;
    }
    if (fault === '5xx') return void json(res, (entry.status = 500), {}, { code: 'INTERNAL_ERROR', message: 'Internal error' });
    if (fault === 'rewrite' && rule?.rewrite) answer.body = Buffer.from(JSON.stringify(rule.rewrite(JSON.parse(answer.body.toString() || '{}'))));
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'content-encoding') headers[k] = v;
    });
    if (res.destroyed) return;
    entry.status = answer.status;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setRules,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request of each stage of `send`, as a rule's `match`: order request, delegation wait, broadcast request, receipt poll. */
export const SEND_STAGES = {
  order: /^POST \/api\/v1\/orders$/,
  delegation: /^GET \/api\/v1\/orders\/(?!preview$)[^/]+$/,
  broadcast: /^POST \/api\/v1\/broadcast$/,
  receipt: /^POST \/wallet\/gettransactioninfobyid$/,
} as const;
