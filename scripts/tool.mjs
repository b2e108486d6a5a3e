#!/usr/bin/env node
// Runs a development tool installed on demand (scripts/lib/tools.mjs): the first run installs it
// from scripts/tools/<tool>/package-lock.json into the cache, later runs start it at once.
//
//   node scripts/tool.mjs <tool> [--bin <name>] [args...]     e.g. node scripts/tool.mjs madge --circular src
//   node scripts/tool.mjs --install [tool...]                  install (all by default) and print where
import { spawnSync } from 'node:child_process';
import { toolBin, toolDir, toolNames, toolPackage } from './lib/tools.mjs';

const args = process.argv.slice(2);
if (args[0] === '--install' || args.length === 0) {
  const names = args.length > 1 ? args.slice(1) : toolNames();
  for (const name of names) console.log(`${toolPackage(name).padEnd(32)} ${toolDir(name)}`);
  process.exit(0);
}
const [tool, ...rest] = args;
let binName;
if (rest[0] === '--bin') {
  binName = rest[1];
  rest.splice(0, 2);
}
const r = spawnSync(process.execPath, [toolBin(tool, binName), ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
