/**
 * A chaos proxy for many faults at once (the payouts' chaos tests; `hostile-proxy.ts` is the one-rule
 * proxy of the send-once tests): a loopback proxy in front of the mock (its account API and its TRON node share one
 * origin): forwards every request, except that the faults a test sets may, per matching request,
 * answer 5xx without forwarding, drop the request (reset, never forwarded), forward it and drop
 * the answer (the broadcast was accepted, the caller never learns it), or hold it past the
 * caller's timeout. Seeded, so a failing run can be replayed; every request is logged with the
 * fault it met.
 */
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';

export type FaultKind = '5xx' | 'drop-request' | 'drop-answer' | 'timeout';

export interface Fault {
  /** Which requests: a method-and-path test (`POST /wallet/broadcasttransaction`) and optionally the body. */
  match: RegExp | ((req: { method: string; path: string; body: string }) => boolean);
  kind: FaultKind;
  /** Chance per matching request. @default 1 */
  probability?: number;
  /** Stop after this many hits. @default unlimited */
  times?: number;
  /** For 'timeout': how long to hold before resetting, ms. @default 2000 */
  holdMs?: number;
}

export interface Logged {
  method: string;
  path: string;
  body: string;
  fault?: FaultKind;
  status?: number;
}

export interface HostileProxy {
  url: string;
  log: Logged[];
  /** Replace the faults (e.g. lift a blackhole). */
  setFaults(faults: Fault[]): void;
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

/** Start the proxy on 127.0.0.1 (a free port) in front of `target`. */
export async function startHostileProxy(target: string, options: { seed?: number; faults?: Fault[] } = {}): Promise<HostileProxy> {
  const random = rng(options.seed ?? 1);
  let faults = (options.faults ?? []).map((f) => ({ ...f, hits: 0 }));
  const log: Logged[] = [];
  const upstream = new URL(target);
  const held = new Set<() => void>();

  const pick = (entry: { method: string; path: string; body: string }) => {
    for (const f of faults) {
      const matches = typeof f.match === 'function' ? f.match(entry) : f.match.test(`${entry.method} ${entry.path}`);
      if (!matches || (f.times !== undefined && f.hits >= f.times)) continue;
      if (random() >= (f.probability ?? 1)) continue;
      f.hits++;
      return f;
    }
    return undefined;
  };

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const entry: Logged = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, body: body.toString('utf8') };
      log.push(entry);
      const fault = pick(entry);
      if (fault) entry.fault = fault.kind;
      if (fault?.kind === '5xx') {
        entry.status = 503;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"SERVICE_UNAVAILABLE","message":"hostile proxy"}}');
        return;
      }
      if (fault?.kind === 'drop-request') return void req.socket.destroy();
      if (fault?.kind === 'timeout') {
        const end = () => req.socket.destroy();
        held.add(end);
        setTimeout(() => {
          held.delete(end);
          end();
        }, fault.holdMs ?? 2_000).unref();
        return;
      }
      try {
        const answer = await forward(req, body);
        entry.status = answer.status;
        // Accepted upstream, and the caller never hears of it.
        if (fault?.kind === 'drop-answer') return void req.socket.destroy();
        res.writeHead(answer.status, answer.headers).end(answer.body);
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setFaults(next) {
      faults = next.map((f) => ({ ...f, hits: 0 }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of held) end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
