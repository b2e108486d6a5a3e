// `npm run build`: dist/ from src/, in steps, each timed:
//   js            tsup (tsup.config.ts): the library's ESM and CommonJS bundles, the CLI, the webhook verifier
//   declarations  tsc declares src/ once (tsconfig.types.json, into .tmp/types, incremental), then
//                 tsup.types.config.ts bundles each entry's .d.ts and .d.cts from those files
//   openapi       the OpenAPI document (scripts/openapi.mjs) and the rules JSON Schema (scripts/rules-schema.mjs)
// It ends with one line of timings on stderr (wall time; CPU time of the step's processes too
// where /proc tells it, as a loaded machine stretches wall time); `--timings FILE` also writes
// them as JSON ({ wall: { js, declarations, tsc, bundle, openapi, total }, cpu: {…} } in ms) for
// bench/install.mjs.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpuMs } from './lib/child-cpu.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const args = process.argv.slice(2);
const timingsFile = args.includes('--timings') ? args[args.indexOf('--timings') + 1] : undefined;

/** Run a node script of a dev dependency's bin (or ours), inheriting stdio; exit on failure. */
function node(script, scriptArgs) {
  const r = spawnSync(process.execPath, [script, ...scriptArgs], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`build: ${script.replace(root, '')} ${scriptArgs.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

const bin = (pkg, name) => join(root, 'node_modules', pkg, require(`${pkg}/package.json`).bin[name]);
const times = {};
const cpu = {};
function step(name, fn) {
  const t = performance.now();
  const c = childCpuMs();
  fn();
  times[name] = Math.round(performance.now() - t);
  if (c !== undefined) cpu[name] = childCpuMs() - c;
}

const started = performance.now();
const cpuStarted = childCpuMs();
rmSync(join(root, 'dist'), { recursive: true, force: true });
step('js', () => node(bin('tsup', 'tsup'), []));
step('tsc', () => node(bin('typescript', 'tsc'), ['-p', 'tsconfig.types.json']));
step('bundle', () => node(bin('tsup', 'tsup'), ['--config', 'tsup.types.config.ts']));
step('openapi', () => {
  node(join(root, 'scripts/openapi.mjs'), []);
  node(join(root, 'scripts/rules-schema.mjs'), []);
});
times.declarations = times.tsc + times.bundle;
times.total = Math.round(performance.now() - started);
if (cpuStarted !== undefined) {
  cpu.declarations = cpu.tsc + cpu.bundle;
  cpu.total = childCpuMs() - cpuStarted;
}
const s = (name) => `${(times[name] / 1000).toFixed(1)} s${cpu[name] === undefined ? '' : ` (CPU ${(cpu[name] / 1000).toFixed(1)} s)`}`;
console.error(
  `build: ${s('total')}: JS ${s('js')}, declarations ${s('declarations')} = tsc ${s('tsc')} + bundling ${s('bundle')}, OpenAPI and rules schema ${s('openapi')}`,
);
if (timingsFile) writeFileSync(timingsFile, JSON.stringify({ wall: times, cpu }));
