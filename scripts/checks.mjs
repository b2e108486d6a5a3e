#!/usr/bin/env node
// `npm run checks`: writes src/api/account-checks.gen.ts, the account client's fast response
// checks, compiled at build time from the endpoint table's zod schemas by
// scripts/lib/compile-checks.mjs (public schema definitions only; see its header for what a check
// promises). test/api/checks.test.ts renders it again and fails when the file is stale, and holds
// every check to zod on generated values.
//
//   node scripts/checks.mjs [--check]
//     --check  exit 1 if the file differs from what would be written (nothing is written)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as z from 'zod';
import { renderAccountChecks } from './lib/compile-checks.mjs';
import { loadSource } from './lib/load-source.mjs';

export const CHECKS_FILE = 'src/api/account-checks.gen.ts';

/** The file's text, from the sources under `root`. */
export async function renderChecksFile(root) {
  const source = await loadSource(root, 'scripts/lib/checks-source.ts');
  const predicates = new Map(Object.entries(source.PREDICATE_IMPORTS).map(([name, from]) => [source[name], { name, from }]));
  return renderAccountChecks(z, source.ACCOUNT_WIRE, predicates);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const target = join(root, CHECKS_FILE);
  const text = await renderChecksFile(root);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${CHECKS_FILE} is stale: run \`npm run checks\``);
      process.exit(1);
    }
    console.log(`${CHECKS_FILE} is up to date`);
  } else {
    writeFileSync(target, text);
    console.log(`checks: wrote ${CHECKS_FILE}`);
  }
}
