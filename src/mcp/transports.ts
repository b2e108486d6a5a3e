/**
 * Serving: one session over stdio (the usual way an MCP client starts a server), or streamable
 * HTTP on a loopback address, one session (and so one spend guard and x402 budget) per MCP
 * session id. The HTTP server checks Host and Origin (DNS rebinding: a web page cannot drive it).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadMcpStdio, loadMcpStreamableHttp, loadMcpTypes } from '../peers/index.js';
import { type McpServerOptions, createMcpServer } from './server.js';
import { isLoopbackHost } from '../internal/net.js';

export interface Served {
  /** Resolves when the session ends (stdin closed) or the server was closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serve one session on `stdin`/`stdout` (default: the process's) until stdin ends. */
export async function serveStdio(options: McpServerOptions, io: { stdin?: Readable; stdout?: Writable } = {}): Promise<Served> {
  const { StdioServerTransport } = await loadMcpStdio();
  const stdin = io.stdin ?? process.stdin;
  const server = await createMcpServer(options);
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
      done();
    },
  };
}


const MAX_BODY = 4 * 1024 * 1024;

export interface ServedHttp extends Served {
  /** e.g. `http://127.0.0.1:8931/mcp` */
  url: string;
}

/**
 * Serve streamable HTTP at `http://host:port/mcp` (host must be loopback). Each MCP session gets
 * its own server, spend guard and x402 budget.
 */
export async function serveHttp(options: McpServerOptions, listen: { port: number; host?: string }): Promise<ServedHttp> {
  const host = listen.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`the MCP HTTP server binds loopback only, not ${host}`);
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await Promise.all([loadMcpStreamableHttp(), loadMcpTypes()]);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    // DNS rebinding: a page on another origin (or a name that resolves here) gets nothing.
    const origin = req.headers.origin;
    if (!allowedHosts.includes(req.headers.host ?? '') || (origin !== undefined && !allowedOrigins.includes(origin))) {
      return reply(res, 403, 'forbidden: Host or Origin is not this loopback server');
    }
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.transport.handleRequest(req, res);
    if (req.method !== 'POST') return reply(res, 400, 'no valid MCP session id');
    const body = await readJson(req);
    if (body === undefined) return reply(res, 400, 'the body is not JSON (or too large)');
    if (!isInitializeRequest(body)) return reply(res, id ? 404 : 400, id ? 'unknown MCP session id' : 'no MCP session: send initialize first');
    const server = await createMcpServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      allowedOrigins,
      onsessioninitialized: (sid) => void sessions.set(sid, { transport, server }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${(error as Error)?.message ?? String(error)}`);
      else res.end();
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
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  return {
    url: `http://${hostPart}:${port}/mcp`,
    closed,
    async close() {
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections?.();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      done();
    },
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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
