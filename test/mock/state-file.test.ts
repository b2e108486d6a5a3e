/**
 * The state file holds the mock's keys (API keys, the JWT secret, wallet keys of the simulated
 * chain). Another local user who can write to its directory must not be able to read it or
 * redirect the write: the temporary file has a random name, is created exclusively without
 * following symlinks, mode 0600, and renamed over the target.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock, createMockState, startMockServer } from '../../src/mock/index.js';
import { readStateFile, writeStateFile } from '../../src/mock/state/persist.js';
import { T0 } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'trx-rent-statefile-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** Modes are POSIX; the suite runs on Linux and macOS. */
const posix = process.platform !== 'win32';

/** A fresh directory with a decoy file (0644) an attacker would like the state written into. */
function setup(name: string): { dir: string; decoy: string } {
  const dir = mkdtempSync(join(root, `${name}-`));
  const decoy = join(dir, 'decoy.txt');
  writeFileSync(decoy, 'decoy', { mode: 0o644 });
  return { dir, decoy };
}

function expectPrivateState(file: string, apiKey: string): void {
  const stat = lstatSync(file);
  expect(stat.isFile()).toBe(true);
  if (posix) expect(stat.mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).toContain(apiKey);
  expect(readStateFile(file)?.format).toBe('trx-rent-mock-state');
}

describe('the state file is written privately (mock --state)', () => {
  it('a planted file and a symlink at the old predictable temporary names change nothing; the file is 0600', async () => {
    const { dir, decoy } = setup('planted');
    const file = join(dir, 'world.json');
    // The names the old writer used: `.world.json.<pid>.tmp`.
    const link = join(dir, `.world.json.${process.pid}.tmp`);
    symlinkSync(decoy, link);
    const planted = join(dir, `.world.json.${process.pid + 1}.tmp`);
    writeFileSync(planted, 'planted', { mode: 0o666 });
    const server = await startMockServer({ stateFile: file, clock: createManualClock(T0), rateLimits: false });
    const apiKey = server.apiKey;
    await server.close();
    expect(readFileSync(decoy, 'utf8')).toBe('decoy');
    expect(readlinkSync(link)).toBe(decoy);
    expect(readFileSync(planted, 'utf8')).toBe('planted');
    expectPrivateState(file, apiKey);
    // Nothing else is left behind: the planted names and our file only.
    expect(readdirSync(dir).sort()).toEqual([link, planted, decoy, file].map((p) => p.slice(dir.length + 1)).sort());
  });

  it('a symlink or a file at the temporary name is never opened: another (random) name is taken', () => {
    const { dir, decoy } = setup('tempname');
    const file = join(dir, 'world.json');
    const link = join(dir, 'taken-link.tmp');
    const planted = join(dir, 'taken-file.tmp');
    symlinkSync(decoy, link);
    writeFileSync(planted, 'planted', { mode: 0o666 });
    const names = ['taken-link.tmp', 'taken-file.tmp'];
    const tried: string[] = [];
    const state = createMockState({ seed: 1, clock: createManualClock(T0) });
    try {
      writeStateFile(file, state.snapshot(), {
        tempName: () => {
          const name = names.shift() ?? `fresh-${tried.length}.tmp`;
          tried.push(name);
          return name;
        },
      });
      expect(tried).toEqual(['taken-link.tmp', 'taken-file.tmp', 'fresh-2.tmp']);
      expect(readFileSync(decoy, 'utf8')).toBe('decoy');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(planted, 'utf8')).toBe('planted');
      expectPrivateState(file, state.demo.api_key);
      // Every name taken: the write fails, naming the cause, and the target is untouched.
      const before = readFileSync(file, 'utf8');
      expect(() => writeStateFile(file, state.snapshot(), { tempName: () => 'taken-link.tmp' })).toThrow(/ELOOP|EEXIST/);
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      state.dispose();
    }
  });

  it('a symlink at the target is replaced by the private file, never written through', () => {
    const { dir, decoy } = setup('target');
    const file = join(dir, 'world.json');
    symlinkSync(decoy, file);
    const state = createMockState({ seed: 2, clock: createManualClock(T0) });
    try {
      writeStateFile(file, state.snapshot());
      expect(readFileSync(decoy, 'utf8')).toBe('decoy');
      expect(statSync(decoy).mode & 0o777).toBe(0o644);
      expectPrivateState(file, state.demo.api_key);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      state.dispose();
    }
  });
});
