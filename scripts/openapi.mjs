#!/usr/bin/env node
// `npm run openapi` (and the last step of `npm run build`): writes the service contract, generated
// from the zod schemas by src/openapi/document.ts, to dist/openapi.json (shipped as
// `trx-rent/openapi.json`).
//
// The generator is compiled fresh from the sources on every run (tsup's API, no config file,
// one ESM bundle under .tmp/ with the packages left external), so the JSON never lags behind
// the schemas, and the script works with or without a built dist/.
//
//   node scripts/openapi.mjs [--out <file>] [--check]
//     --out <file>  write there instead of dist/openapi.json
//     --check       exit 1 if the file differs from what would be written (nothing is written)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSource } from './lib/load-source.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = resolve(root, outArg === -1 ? 'dist/openapi.json' : (args[outArg + 1] ?? ''));
const check = args.includes('--check');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const { buildOpenApiDocument } = await loadSource(root, 'src/openapi/document.ts');
// Compact: tools parse it (`jq . dist/openapi.json` to read it); indented it was 2.3x the bytes,
// 146 kB of the install.
const text = `${JSON.stringify(buildOpenApiDocument({ version: pkg.version }))}\n`;
if (check) {
  const current = existsSync(out) ? readFileSync(out, 'utf8') : '';
  if (current !== text) {
    console.error(`${out} is not the document the schemas generate: run npm run openapi`);
    process.exitCode = 1;
  }
} else {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`openapi: wrote ${out.slice(root.length)} (${Object.keys(JSON.parse(text).paths).length} paths)`);
}
