// `npm install` in a clone runs `prepare`, and so does `npx trx-rent …` run in the clone: npm
// links the folder into its exec cache and runs its `prepare` again, silently. That used to be a
// full build (~12-18 s) before the first line of `npx trx-rent demo`. Here the build runs only
// when dist/ is missing or older than its sources, and always for `npm pack` / `npm publish`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (p) => join(root, p);
const INPUTS = [
  'src',
  'package.json',
  'tsup.config.ts',
  'tsup.types.config.ts',
  'tsconfig.json',
  'tsconfig.types.json',
  'scripts/build.mjs',
  'scripts/openapi.mjs',
  'scripts/lib/load-source.mjs',
  'scripts/lib/bundler-hints.mjs',
];
const OUTPUTS = ['dist/index.js', 'dist/cli/index.js', 'dist/webhooks/index.js', 'dist/openapi.json'];

/** The newest modification time under `path` (bounded: src/ holds a few hundred files). */
function newest(path, depth = 0) {
  const st = statSync(path);
  if (!st.isDirectory() || depth > 8) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const entry of readdirSync(path)) m = Math.max(m, newest(join(path, entry), depth + 1));
  return m;
}

const always = ['pack', 'publish'].includes(process.env.npm_command ?? '') || process.argv.includes('--force');
if (!always && OUTPUTS.every((p) => existsSync(at(p)))) {
  const built = Math.min(...OUTPUTS.map((p) => statSync(at(p)).mtimeMs));
  const sources = Math.max(...INPUTS.filter((p) => existsSync(at(p))).map((p) => newest(at(p))));
  if (built >= sources) {
    console.log('trx-rent: dist/ is up to date with src/ (npm run build rebuilds it)');
    process.exit(0);
  }
}
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
