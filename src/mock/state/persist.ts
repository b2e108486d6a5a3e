/**
 * The simulated world as a file: `trx-rent mock --state FILE` and `startMockServer({ stateFile })`.
 * A snapshot holds accounts (keys, ledgers, the JWT secret), orders with their fills, deposits and
 * withdrawals, the market's overrides, the chain (accounts, balances, transactions), idempotency
 * keys, webhooks with their deliveries, and the clock. It is JSON with Maps, Sets and bigints
 * tagged (`{"$map": [...]}`, `{"$set": [...]}`, `{"$bigint": "..."}`), written atomically
 * (a temporary file in the same directory, then rename), so a crash leaves the old file or the
 * new one, never half of one. The file holds keys, so the temporary file has a random name, is
 * created exclusively (`O_EXCL`, never through a symlink: `O_NOFOLLOW`) with mode 0600 and
 * fsynced before the rename: nothing planted in the directory can read or redirect the write. Work that was pending (an order selecting or filling, a deposit
 * waiting for its credit, a delivery waiting for a retry) is scheduled again at load.
 *
 * This module is the only one of the state that touches the file system; MockState itself only
 * produces and takes the plain object (so the fetch adapter and msw stay runtime-neutral).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../internal/atomic-file.js';
import type { SavedState } from './state-options.js';

/** The `format` field of a state file. */
export const STATE_FORMAT = 'trx-rent-mock-state';
/** The version of the layout; a file of another version is refused with a clear error. */
export const STATE_VERSION = 1;

function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value] };
  if (value instanceof Set) return { $set: [...value] };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const keys = Object.keys(v);
    if (keys.length === 1) {
      if (keys[0] === '$map' && Array.isArray(v.$map)) return new Map(v.$map as Array<[unknown, unknown]>);
      if (keys[0] === '$set' && Array.isArray(v.$set)) return new Set(v.$set);
      if (keys[0] === '$bigint' && typeof v.$bigint === 'string') return BigInt(v.$bigint);
    }
  }
  return value;
}

/** A snapshot as the file's text. */
export function encodeState(saved: SavedState): string {
  return JSON.stringify(saved, replacer);
}

/** A file's text as a snapshot; throws an Error naming what is wrong (not JSON, another format or version). */
export function decodeState(text: string, source = 'state file'): SavedState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, reviver);
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  const saved = parsed as Partial<SavedState> | null;
  if (!saved || typeof saved !== 'object' || saved.format !== STATE_FORMAT)
    throw new Error(`${source} is not a trx-rent mock state file (no "format": "${STATE_FORMAT}")`);
  if (saved.version !== STATE_VERSION) throw new Error(`${source} has layout version ${String(saved.version)}; this trx-rent reads version ${STATE_VERSION}`);
  return saved as SavedState;
}

/** Read a state file; undefined when it does not exist yet (the mock then starts fresh and creates it). */
export function readStateFile(path: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return decodeState(text, path);
}

/** Options of {@link writeStateFile}. */
export interface WriteStateOptions {
  /** The temporary file's name in the target's directory (default: random); tests plant files at it. */
  tempName?: (target: string) => string;
}

/**
 * Write a state file atomically and privately (`writeFileAtomic`): a temporary file with a random
 * name next to it, created exclusively (an existing file or symlink at that name is never opened;
 * another name is tried), mode 0600, fsynced, then renamed over the target (rename replaces a
 * symlink at the target itself; it never writes through it).
 */
export function writeStateFile(path: string, saved: SavedState, options: WriteStateOptions = {}): void {
  writeFileAtomic(path, encodeState(saved), { mode: 0o600, tempName: options.tempName });
}
