/**
 * The one careful file write (src/internal/atomic-file.ts): never through a symlink, whether one
 * is planted at the target (refused with `refuseSymlink`, else the link itself is replaced) or at
 * the temporary name (another name is taken); the file a link points at is never touched.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/internal/atomic-file.js';

function dirWithVictim() {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-file-'));
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  return { dir, victim };
}

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an existing one, leaving no temporary file', () => {
    const { dir } = dirWithVictim();
    const file = join(dir, 'out.csv');
    writeFileAtomic(file, 'one\n');
    writeFileAtomic(file, 'two\n', { mode: 0o644 });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(readdirSync(dir).sort()).toEqual(['out.csv', 'victim.txt']);
  });

  it('refuses a symlink at the target with refuseSymlink; the file it points at is untouched', () => {
    const { dir, victim } = dirWithVictim();
    const link = join(dir, 'report.csv');
    symlinkSync(victim, link);
    expect(() => writeFileAtomic(link, 'overwritten\n', { refuseSymlink: true })).toThrow(expect.objectContaining({ code: 'ESYMLINK' }));
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('without it, the link itself is replaced, never written through', () => {
    const { dir, victim } = dirWithVictim();
    const link = join(dir, 'state.json');
    symlinkSync(victim, link);
    writeFileAtomic(link, 'new\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, 'utf8')).toBe('new\n');
  });

  it('a symlink planted at the temporary name is not opened: another name is taken', () => {
    const { dir, victim } = dirWithVictim();
    symlinkSync(victim, join(dir, 'planted.tmp'));
    const names = ['planted.tmp', 'fresh.tmp'];
    writeFileAtomic(join(dir, 'out.json'), '{}\n', { tempName: () => names.shift()! });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe('{}\n');
  });
});
