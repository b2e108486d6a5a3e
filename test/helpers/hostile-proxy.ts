/**
 * A hostile loopback proxy in front of a server (the mock): every request is forwarded as it
 * is, except those a rule matches, which meet a fault. Faults that model "the effect happened,
 * the answer did not come back" forward first, then drop, fail or hold the answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a matched request meets. */
export type Fault =
  /** Forwarded (the effect happens), then the connection is cut before any answer. */
  | 'lost'
  /** Forwarded, then answered 500 instead of the real answer. */
  | '5xx'
  /** Never forwarded: 429 with Retry-After: 0, every time. */
  | '429'
  /** Forwarded, and the answer never comes (the connection is held open). */
  | 'timeout'
  /** Forwarded and answered normally, after `onMatch` (a signal to the client process) and a short hold. */
  | 'pass'
  /** Forwarded, and the answer's JSON body replaced by `rewrite(body)` (a lying service or node). */
  | 'rewrite';

export interface Rule {
  method: string;
  /** Matched against the path (no query). */
  path: RegExp;
  fault: Fault;
  /** Called when a request matches (e.g. to send the CLI SIGINT or SIGKILL). */
  onMatch?: (() => void) | undefined;
  /** Wait this long before forwarding (so a signal sent in onMatch lands while the request is in flight). */
  holdMs?: number | undefined;
  /** For 'rewrite': the answer's body (parsed JSON) to what the client gets. */
  rewrite?: ((body: any) => unknown) | undefined;
}

export interface HostileProxy {
  url: string;
  /** Requests that met a fault, as `METHOD path`. */
  hits: string[];
  /** Every request seen, in order, with its body. */
  seen: Array<{ method: string; path: string; body: string }>;
  /** Replace the rule (undefined: forward everything). */
  set(rule: Rule | undefined): void;
  close(): Promise<void>;
}

/** Start a proxy on 127.0.0.1 in front of `target` (an http://127.0.0.1:port origin). */
export async function hostileProxy(target: string, rule?: Rule): Promise<HostileProxy> {
  let current = rule;
  const hits: string[] = [];
  const seen: HostileProxy['seen'] = [];
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
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const path = (req.url ?? '').split('?')[0]!;
        seen.push({ method: req.method ?? '', path, body: body.toString() });
        const r = current && current.method === req.method && current.path.test(path) ? current : undefined;
        try {
          if (r) {
            hits.push(`${req.method} ${path}`);
            r.onMatch?.();
            if (r.holdMs) await new Promise((resolve) => setTimeout(resolve, r.holdMs));
          }
          if (r?.fault === '429') {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
            res.end(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests' } }));
            return;
          }
          const answer = await forward(req, body);
          if (r?.fault === 'lost') return void req.socket.destroy();
          if (r?.fault === 'timeout') return; // held until the client gives up or the proxy closes
          if (r?.fault === '5xx') {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Internal error' } }));
            return;
          }
          if (r?.fault === 'rewrite' && r.rewrite) answer.body = Buffer.from(JSON.stringify(r.rewrite(JSON.parse(answer.body.toString() || '{}'))));
          const headers: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'content-encoding') headers[k] = v;
          });
          if (!res.destroyed) {
            res.writeHead(answer.status, headers);
            res.end(answer.body);
          }
        } catch {
          req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    seen,
    set: (next) => void (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request of each stage of `send`: order request, delegation wait, broadcast request, receipt poll. */
export const SEND_STAGES = {
  order: { method: 'POST', path: /^\/api\/v1\/orders$/ },
  delegation: { method: 'GET', path: /^\/api\/v1\/orders\/(?!preview$)[^/]+$/ },
  broadcast: { method: 'POST', path: /^\/api\/v1\/broadcast$/ },
  receipt: { method: 'POST', path: /^\/wallet\/gettransactioninfobyid$/ },
} as const;
