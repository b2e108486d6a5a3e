// A fresh clone's install, in parts: `git clone` of this repository's HEAD (committed work only)
// into a temporary folder, then what `npm ci` does there, split: the packages (`npm ci
// --ignore-scripts`), then the build `prepare` runs (scripts/build.mjs, which times its own
// steps): JS bundles, type declarations (tsc + bundling), OpenAPI document and rules schema.
// Wall time, and CPU time where /proc tells it (on a loaded machine wall time mostly measures the
// neighbours). npm's cache is whatever this machine has: a first install anywhere downloads too.
//   node bench/install.mjs          (also the `install` section of npm run bench)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpuMs } from '../scripts/lib/child-cpu.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function timed(command, args, cwd) {
  const t = performance.now();
  const c = childCpuMs();
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return { wall: performance.now() - t, cpu: c === undefined ? undefined : childCpuMs() - c };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-install-'));
  try {
    const clone = join(dir, 'repo');
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
    timed('git', ['clone', '--quiet', '--no-hardlinks', root, clone], dir);
    const started = performance.now();
    const install = timed(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], clone);
    const timings = join(dir, 'timings.json');
    timed(process.execPath, ['scripts/build.mjs', '--timings', timings], clone);
    const total = performance.now() - started;
    const build = JSON.parse(readFileSync(timings, 'utf8'));
    const row = (name, wall, cpu) => ({ name: `${name}${cpu === undefined ? '' : ` (CPU ${(cpu / 1000).toFixed(1)} s)`}`, value: wall / 1000, unit: 's' });
    const declarationsShare = build.wall.declarations / total;
    return {
      title: `Install of a fresh clone (${head}), in parts: npm ci --ignore-scripts, then the build prepare runs (wall time)`,
      rows: [
        row('npm ci: packages', install.wall, install.cpu),
        row('build: JS bundles (tsup)', build.wall.js, build.cpu.js),
        row('build: type declarations (tsc, then bundled for ESM and CJS)', build.wall.declarations, build.cpu.declarations),
        row('  of which tsc', build.wall.tsc, build.cpu.tsc),
        row('  of which bundling the .d.ts', build.wall.bundle, build.cpu.bundle),
        row('build: OpenAPI document and rules schema', build.wall.openapi, build.cpu.openapi),
        {
          ...row(
            `npm ci in all, declarations ${(100 * declarationsShare).toFixed(0)}% of it`,
            total,
            install.cpu === undefined || build.cpu.total === undefined ? undefined : install.cpu + build.cpu.total,
          ),
          target: 'declarations < 1/3 of it',
          ok: declarationsShare < 1 / 3,
        },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, title } = await run();
  console.log(`## ${title}`);
  for (const r of rows) console.log(`${r.value.toFixed(1).padStart(7)} s  ${r.name}`);
}
