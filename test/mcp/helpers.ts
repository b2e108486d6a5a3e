import { existsSync, mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, type ElicitRequest, type ElicitResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { McpServerOptions, Session } from '../../src/mcp/session.js';
import type { MockServer } from '../../src/mock/index.js';
import { type Hostile, type Seen, hostileServer } from '../security/hostile.js';

/** Fixed test keys (never real funds). */
export const KEYS = {
  tron: 'b6f1c8bb3e3fa2fc4a57e2a5f5e1d7c1a7e0c4d7b4f2e6a9d8c3b1a0f9e8d7c6',
  tron2: '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63',
} as const;

/** A receiving address that passes base58check. */
export const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

export type Elicit = (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

export interface Connected {
  client: Client;
  logs: string[];
  /** Confirmation requests the client was shown. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * The MCP server in-process on the mock, and the SDK's own client over the SDK's in-memory
 * transport. `elicit` given: the client declares elicitation and answers with it. `shared`: the
 * server runs on that process state (a test reads its guard).
 */
/** The servers' private folder for this test file's run. */
export const STATE_DIR = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-state-'));

export async function connect(mock: MockServer, options: Partial<McpServerOptions> = {}, elicit?: Elicit, shared?: Session): Promise<Connected> {
  const logs: string[] = [];
  const asked: string[] = [];
  const server = await createMcpServer(
    {
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      wallet: { tron: KEYS.tron },
      tronFullNode: mock.url,
      gasfreeRelayer: `${mock.url}/__mock/gasfree`,
      log: (line) => logs.push(line),
      // The server's journals in a folder of this test run, never the user's home.
      stateDir: STATE_DIR,
      ...options,
    },
    shared,
  );
  const client = new Client({ name: 'trx-rent-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return elicit(request.params);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    logs,
    asked,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** `tools/call` with a bounded timeout. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}, timeoutMs = 15_000): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
}

/** The structured content of a successful call (fails the test with the error text otherwise). */
export function ok<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${text(result)}`);
  return result.structuredContent as T;
}

/** The error code of a tool error (`CODE: message`). */
export function errorOf(result: CallToolResult): { code: string; message: string; details?: Record<string, unknown> } {
  if (!result.isError) throw new Error(`expected a tool error, got ${text(result)}`);
  const info = (result._meta as Record<string, unknown> | undefined)?.['trx-rent/error'] as {
    code: string;
    message: string;
    details?: Record<string, unknown>;
  };
  return info;
}

export function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** Run `run` in a session of its own on `mock`'s MCP server, closed afterwards. */
export async function session<T>(
  mock: MockServer,
  options: Partial<McpServerOptions> | undefined,
  run: (c: Connected) => Promise<T>,
  elicit?: Elicit,
): Promise<T> {
  const c = await connect(mock, options, elicit);
  try {
    return await run(c);
  } finally {
    await c.close();
  }
}

/** The person approves the spend the elicitation asks about. */
export const accept = (): ElicitResult => ({ action: 'accept', content: { approve: true } });
/** The person declines it. */
export const decline = (): ElicitResult => ({ action: 'decline' });

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A `trx-rent` process serving MCP over stdio, as an MCP client starts it. */
export interface Spawned {
  client: Client;
  stderr: () => string;
  /** Ends stdin (the server exits); how long closing took, ms. */
  close(): Promise<number>;
  /** SIGKILL: the server gets no chance to write anything more. Resolves once the process is gone. */
  kill(): Promise<void>;
}

/**
 * The built command (`node bin/trx-rent.js …args`) spawned by the SDK's StdioClientTransport,
 * with only `env` (and PATH, and `configDir` as its config directory) in its environment: no API
 * key or wallet leaks in from the developer's shell. `answers`: the client declares elicitation
 * and answers with them in turn. Needs the build (`npm run build`).
 */
export async function spawnMcp(
  args: string[],
  options: { answers?: ElicitResult[] | undefined; configDir?: string | undefined; env?: Record<string, string> | undefined } = {},
): Promise<Spawned> {
  if (!existsSync(join(root, 'dist', 'cli', 'index.js'))) throw new Error('dist/cli/index.js is missing: run `npm run build` (or `npx tsup`) first');
  const configDir = options.configDir ?? mkdtempSync(join(tmpdir(), 'trx-rent-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'bin', 'trx-rent.js'), ...args],
    cwd: root,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: configDir, NO_COLOR: '1', ...options.env },
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const { answers } = options;
  const client = new Client({ name: 'trx-rent-stdio-test', version: '1.0.0' }, { capabilities: answers ? { elicitation: { form: {} } } : {} });
  if (answers) client.setRequestHandler(ElicitRequestSchema, async () => answers.shift() ?? { action: 'decline' });
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await client.connect(transport, { timeout: 15_000 });
  return {
    client,
    stderr: () => err,
    async close() {
      const started = Date.now();
      await client.close();
      return Date.now() - started;
    },
    async kill() {
      const pid = transport.pid;
      if (pid === null) throw new Error('the server process has no pid');
      process.kill(pid, 'SIGKILL');
      await closed;
      await client.close().catch(() => undefined);
    },
  };
}

/** A loopback proxy to `mock`; `tamper` may answer a request itself (return true). */
export async function proxy(mock: MockServer, tamper: (req: Seen, res: ServerResponse) => boolean | void): Promise<Hostile> {
  return hostileServer((req, res) => {
    if (tamper(req, res) === true) return;
    void (async () => {
      const upstream = await forward(mock, req);
      res.writeHead(upstream.status, upstream.headers);
      res.end(upstream.body);
    })().catch(() => res.destroy());
  });
}

/** `req` sent on to `mock` (one retry: a pooled connection the mock closed meanwhile is the proxy's fault, not a test's subject). */
export async function forward(mock: MockServer, req: Seen): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
  const send = () => fetch(`${mock.url}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : req.body });
  const upstream = await send().catch(send);
  const out: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
  });
  return { status: upstream.status, headers: out, body: await upstream.text() };
}
