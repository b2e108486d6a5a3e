#!/usr/bin/env node
// Writes the JSON Schema of the standing-rules file (generated from its zod schemas,
// src/workflows/rules/schema.ts) to dist/rules.schema.json, shipped as `trx-rent/rules.schema.json`
// for editor completion. Run by `npm run build` after the OpenAPI document.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSource } from './lib/load-source.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/rules.schema.json');
const { rulesJsonSchema } = await loadSource(root, 'src/workflows/rules/schema.ts');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(rulesJsonSchema(), null, 2)}\n`);
console.log(`rules-schema: wrote ${out.slice(root.length)}`);
