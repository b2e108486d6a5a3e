/**
 * Hostile loopback servers for the attack suite: each answers from a handler with full control of
 * the raw response (status, headers, streamed bytes, dropped sockets) and records what it got.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Hostile {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

/** A loopback server whose handler writes the raw response itself. */
export async function hostileServer(handler: (req: Seen, res: ServerResponse, index: number) => void): Promise<Hostile> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(record);
      try {
        handler(record, res, seen.length - 1);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Write JSON with a status and headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'trx-rent.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a real process (npm test builds first), clean environment, own config dir, bounded in time. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 15_000): Promise<CliRun> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('TRX_RENT_') && k !== 'FORCE_COLOR' && k !== 'NO_COLOR') clean[k] = v;
  const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-sec-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...clean, TRX_RENT_CONFIG_DIR: configDir, XDG_CONFIG_HOME: configDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`trx-rent ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Any C0/C1 control character but tab and newline (ESC, BEL, CSI 0x9b, CR …). */
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
