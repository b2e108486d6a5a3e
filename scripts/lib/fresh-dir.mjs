// Where the install checks make their fresh projects. Node resolves a package it does not find in
// a project's node_modules from every ancestor's node_modules, so a stray /tmp/node_modules (left
// by anything on the machine) would let a missing dependency pass unnoticed. The first candidate
// with no node_modules above it is used; TRX_RENT_FRESH_DIR comes first when set.
import { accessSync, constants, existsSync, mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The first ancestor of `dir` (itself included) holding a node_modules folder, or undefined. */
export function leakingAncestor(dir) {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** A new empty directory (`mkdtemp` with `prefix`) under a base no ancestor node_modules can reach. */
export function freshDir(prefix) {
  const candidates = [process.env.TRX_RENT_FRESH_DIR, tmpdir(), '/var/tmp', '/dev/shm', join(homedir(), '.cache')].filter(Boolean);
  const refused = [];
  for (const base of candidates) {
    try {
      accessSync(base, constants.W_OK);
    } catch {
      continue;
    }
    const leak = leakingAncestor(base);
    if (leak) {
      refused.push(`${leak}/node_modules`);
      continue;
    }
    return mkdtempSync(join(base, prefix));
  }
  throw new Error(`no temporary directory without a node_modules above it (found ${refused.join(', ')}); set TRX_RENT_FRESH_DIR to one`);
}
