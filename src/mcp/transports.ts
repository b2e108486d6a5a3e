/**
 * Serving: one session over stdio (the usual way an MCP client starts a server), or streamable
 * HTTP on a loopback address, one MCP session per session id. Every session of a process shares
 * one money state (`Session`: spend guard, x402 budget): opening another session never brings
 * a fresh cap.
 *
 * HTTP is guarded like a local service others can reach: Host and Origin are checked (DNS
 * rebinding: a web page cannot drive it), every request needs the bearer token (compared in
 * constant time; 401 without it), sessions are capped in number (503 past the cap) and closed
 * when idle, and a dead or unknown session id is 404 on every method (the MCP spec's cue to
 * start a new session).
 * @module
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadMcpStdio, loadMcpStreamableHttp, loadMcpTypes } from '../peers/index.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_SESSIONS, MIN_TOKEN_LENGTH } from './limits.js';
import { type McpServerOptions, Session, createMcpServer } from './server.js';
import { isLoopbackHost } from '../internal/net.js';

export interface Served {
  /** Resolves when the session ends (stdin closed) or the server was closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serve one session on `stdin`/`stdout` (default: the process's) until stdin ends. `shared`: the
 * process's money state, when it also serves elsewhere (default: a new one).
 */
export async function serveStdio(options: McpServerOptions, io: { stdin?: Readable; stdout?: Writable } = {}, shared?: Session): Promise<Served> {
  const { StdioServerTransport } = await loadMcpStdio();
  const stdin = io.stdin ?? process.stdin;
  const session = shared ?? new Session(options);
  const server = await createMcpServer(options, session);
  const transport = new StdioServerTransport(stdin, io.stdout ?? process.stdout);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const end = () => done();
  stdin.once('end', end);
  stdin.once('close', end);
  server.onclose = end;
  await server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off('end', end);
      stdin.off('close', end);
      await server.close().catch(() => undefined);
      // A session made here lets go of its store (its holds on a shared one).
      if (!shared) await session.close().catch(() => undefined);
      done();
    },
  };
}

const MAX_BODY = 4 * 1024 * 1024;

/** Where and how the HTTP server listens. */
export interface HttpListen {
  port: number;
  /** A loopback address. @default '127.0.0.1' */
  host?: string | undefined;
  /**
   * The bearer token every request must carry (`Authorization: Bearer …`), at least 16
   * characters. Not given: a random one is generated (read it from `ServedHttp.token`).
   */
  token?: string | undefined;
  /** A session with no request for this long (and none open) is closed. @default 900000 (15 min) */
  idleTimeoutMs?: number | undefined;
  /** Most live sessions; an initialize past it answers 503. @default 32 */
  maxSessions?: number | undefined;
}

export interface ServedHttp extends Served {
  /** e.g. `http://127.0.0.1:8931/mcp` */
  url: string;
  /** The bearer token clients must send. */
  token: string;
  /** True when the token was generated here (the caller should show it once). */
  generatedToken: boolean;
  /** Live sessions now. */
  sessionCount(): number;
}

interface Live {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** Requests of this session still open (a tool call, an SSE stream). */
  open: number;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Serve streamable HTTP at `http://host:port/mcp` (host must be loopback). Every MCP session
 * gets its own protocol server; all share `shared` (default: one new `Session` for this
 * server), so the caps and the x402 budget count across sessions.
 */
export async function serveHttp(options: McpServerOptions, listen: HttpListen, shared?: Session): Promise<ServedHttp> {
  const host = listen.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`the MCP HTTP server binds loopback only, not ${host}`);
  const generatedToken = listen.token === undefined;
  const token = listen.token ?? randomBytes(32).toString('base64url');
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
    throw new Error(`the MCP HTTP bearer token must be at least ${MIN_TOKEN_LENGTH} characters without spaces`);
  const idleTimeoutMs = listen.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxSessions = listen.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!(idleTimeoutMs > 0) || !Number.isSafeInteger(maxSessions) || maxSessions < 1) throw new RangeError('idleTimeoutMs and maxSessions must be positive');
  const expected = digest(token);
  const state = shared ?? new Session(options);
  state.startUp(); // what an earlier process left is looked up now, before the first MCP session
  const log = (line: string) => state.guard.log(line);

  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await Promise.all([loadMcpStreamableHttp(), loadMcpTypes()]);
  const sessions = new Map<string, Live>();
  /** Initializes in progress (they count against the cap until they succeed or fail). */
  let starting = 0;
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  /** Constant time: both sides hashed to 32 bytes, compared with timingSafeEqual. */
  const authorized = (header: string | undefined): boolean => {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };

  const end = async (id: string, why: string) => {
    const live = sessions.get(id);
    if (!live) return;
    sessions.delete(id);
    await live.server.close().catch(() => undefined);
    log(`an HTTP session ended (${why}); ${sessions.size} left`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    // DNS rebinding: a page on another origin (or a name that resolves here) gets nothing.
    const origin = req.headers.origin;
    if (!allowedHosts.includes(req.headers.host ?? '') || (origin !== undefined && !allowedOrigins.includes(origin))) {
      return reply(res, 403, 'forbidden: Host or Origin is not this loopback server');
    }
    if (!authorized(req.headers.authorization)) {
      return reply(
        res,
        401,
        "unauthorized: send the server's bearer token (Authorization: Bearer …), printed by `trx-rent mcp --http` at start or set with --token-file / TRX_RENT_MCP_TOKEN",
        {
          'www-authenticate': 'Bearer realm="trx-rent-mcp"',
        },
      );
    }
    const id = req.headers['mcp-session-id'];
    if (id !== undefined) {
      const live = typeof id === 'string' ? sessions.get(id) : undefined;
      // Expired, closed or made up: 404 on every method, the client's cue to initialize again.
      if (!live) return reply(res, 404, 'unknown or expired MCP session id: start a new session (initialize without a session id)');
      live.open++;
      live.lastSeen = Date.now();
      res.once('close', () => {
        live.open--;
        live.lastSeen = Date.now();
      });
      return live.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'no MCP session id: send initialize (POST) first');
    const body = await readJson(req);
    if (body === undefined) return reply(res, 400, 'the body is not JSON (or too large)');
    if (!isInitializeRequest(body)) return reply(res, 400, 'no MCP session: send initialize first');
    if (sessions.size + starting >= maxSessions) {
      return reply(
        res,
        503,
        `too many MCP sessions (${maxSessions}, --max-sessions): close one (DELETE with its session id) or wait for an idle one to expire`,
        {
          'retry-after': String(Math.max(1, Math.ceil(Math.min(idleTimeoutMs, 60_000) / 1000))),
        },
        (body as { id?: unknown }).id,
      );
    }
    starting++;
    let server: Server | undefined;
    try {
      server = await createMcpServer(options, state);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        allowedOrigins,
        onsessioninitialized: (sid) => void sessions.set(sid, { transport, server: server!, lastSeen: Date.now(), open: 0 }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      if (!transport.sessionId || !sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    } catch (error) {
      await server?.close().catch(() => undefined);
      throw error;
    } finally {
      starting--;
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, 'internal error of the MCP server');
      else res.end();
      log(`HTTP request failed: ${(error as Error)?.message ?? String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(listen.port, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host.replace(/^\[|\]$/g, '')}]` : host;
  allowedHosts = [`${hostPart}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
  allowedOrigins = allowedHosts.map((h) => `http://${h}`);

  // Idle sessions: no request open and none for idleTimeoutMs.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [sid, live] of sessions) {
        if (live.open <= 0 && now - live.lastSeen >= idleTimeoutMs) void end(sid, 'idle');
      }
    },
    Math.max(100, Math.min(Math.floor(idleTimeoutMs / 4), 30_000)),
  );
  sweep.unref();

  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  return {
    url: `http://${hostPart}:${port}/mcp`,
    token,
    generatedToken,
    sessionCount: () => sessions.size,
    closed,
    async close() {
      clearInterval(sweep);
      for (const { server } of [...sessions.values()]) await server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections?.();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (!shared) await state.close().catch(() => undefined);
      done();
    },
  };
}

/** A JSON-RPC error answer (the streamable HTTP transport's own shape). */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, id: unknown = null): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: rpcId }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
