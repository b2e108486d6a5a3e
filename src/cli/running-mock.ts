/**
 * The running `trx-rent mock`, found by other terminals: while it listens on a loopback address
 * the mock writes its URL and demo API key to `mock-server.json` in the config directory (mode
 * 0600, next to the profiles), and removes it on exit. A command with no base URL from a flag,
 * the environment or the profile then uses that mock, saying so, so `trx-rent mock --wallet
 * key.txt` in one terminal and `trx-rent send … --key-file key.txt` in another need no setting.
 * A record whose process is gone is ignored. Nothing here reaches beyond this machine: only a
 * loopback mock is recorded, and the key it holds is the mock's throwaway demo key.
 * @module
 */
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfigDir } from './config.js';
import { processAlive } from '../internal/process.js';

/** What the record holds. */
export interface RunningMock {
  url: string;
  apiKey: string;
  /** The file the record was read from (for messages). */
  path: string;
}

const FILE = 'mock-server.json';

/** The record's path for a run's config directory (TRX_RENT_CONFIG_DIR, else the platform's). */
export function runningMockPath(configDir: string | undefined): string {
  return join(configDir || defaultConfigDir(), FILE);
}


/** Writes the record; returns what removes it again (only while it is still this process's). */
export function recordRunningMock(configDir: string | undefined, mock: { url: string; apiKey: string }): () => void {
  const path = runningMockPath(configDir);
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify({ url: mock.url, api_key: mock.apiKey, pid: process.pid, started_at: new Date().toISOString() }, undefined, 2)}\n`, { mode: 0o600 });
  return () => {
    try {
      const saved = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
      if (saved.pid === process.pid) rmSync(path, { force: true });
    } catch {
      // gone already, or replaced by another mock: leave it
    }
  };
}

/** The running mock of this config directory, or undefined (no record, unreadable, or its process is gone). */
export function findRunningMock(configDir: string | undefined): RunningMock | undefined {
  const path = runningMockPath(configDir);
  let saved: { url?: unknown; api_key?: unknown; pid?: unknown };
  try {
    saved = JSON.parse(readFileSync(path, 'utf8')) as typeof saved;
  } catch {
    return undefined;
  }
  if (typeof saved.url !== 'string' || typeof saved.api_key !== 'string' || typeof saved.pid !== 'number') return undefined;
  if (!processAlive(saved.pid)) return undefined;
  return { url: saved.url, apiKey: saved.api_key, path };
}
