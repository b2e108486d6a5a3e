// Footprint measurements shared by scripts/check-package.mjs and bench/footprint.mjs.
import { lstatSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Size of a built entry as a user's bundler would ship it: the entry and its local chunks bundled
 * and minified with esbuild, every package (and node: builtin) left external, then gzip -9.
 * `imports` lists what stays external, so "no dependencies" can be asserted.
 */
export async function bundleSize(file, { bundleDeps = false } = {}) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: bundleDeps ? undefined : 'external',
    mainFields: ['module', 'main'],
    conditions: ['import', 'module', 'default'],
    // With dependencies bundled, only Node builtins stay out. The optional peers are not marked
    // external: the package never names one where a bundler looks (src/peers), and a bundle that
    // could not resolve one must fail here as it would in an app.
    external: bundleDeps ? ['node:*'] : undefined,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const imports = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const i of output.imports) if (i.external) imports.add(i.path);
  }
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    inputs: Object.keys(result.metafile.inputs).length,
    imports: [...imports].sort(),
  };
}

/** Sizes of the `trx-rent` and `trx-rent/webhooks` entries of a built package root. */
export async function coreBundleSizes(root) {
  const index = join(root, 'dist', 'index.js');
  const webhooks = join(root, 'dist', 'webhooks', 'index.js');
  if (!existsSync(index) || !existsSync(webhooks)) throw new Error(`no build in ${root}/dist (run \`npm run build\`)`);
  return {
    'trx-rent': await bundleSize(index),
    'trx-rent, dependencies bundled too': await bundleSize(index, { bundleDeps: true }),
    'trx-rent/webhooks': await bundleSize(webhooks),
  };
}

/**
 * Bytes (sum of file sizes, symlinks not followed) and packages of a node_modules tree. A package
 * is a directory with a package.json directly under a node_modules folder (scoped or not, nested
 * or hoisted); `duplicates` lists names installed in more than one version.
 */
export function nodeModulesFootprint(nodeModules) {
  let bytes = 0;
  let files = 0;
  const packages = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        bytes += lstatSync(path).size;
        files++;
      }
    }
  };
  const collect = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const dirs = entry.name.startsWith('@')
        ? readdirSync(join(modules, entry.name), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => join(modules, entry.name, e.name))
        : [join(modules, entry.name)];
      for (const dir of dirs) {
        const manifest = join(dir, 'package.json');
        if (existsSync(manifest)) {
          try {
            const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
            packages.push({ name, version, dir });
          } catch {
            packages.push({ name: dir, version: '?', dir });
          }
        }
        collect(join(dir, 'node_modules'));
      }
    }
  };
  if (existsSync(nodeModules)) {
    walk(nodeModules);
    collect(nodeModules);
  }
  const versions = new Map();
  for (const p of packages) versions.set(p.name, new Set([...(versions.get(p.name) ?? []), p.version]));
  const duplicates = [...versions].filter(([, v]) => v.size > 1).map(([name, v]) => `${name}@${[...v].join('|')}`);
  return { bytes, files, packages: packages.length, duplicates, list: packages.map((p) => `${p.name}@${p.version}`).sort() };
}

/** The biggest packages of a tree (by their own directory, nested node_modules excluded). */
export function largestPackages(nodeModules, n = 8) {
  const sizes = [];
  const sizeOf = (dir) => {
    let total = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') total += sizeOf(path);
      } else if (entry.isFile()) total += lstatSync(path).size;
    }
    return total;
  };
  const visit = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const dirs = entry.name.startsWith('@')
        ? readdirSync(join(modules, entry.name), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => [`${entry.name}/${e.name}`, join(modules, entry.name, e.name)])
        : [[entry.name, join(modules, entry.name)]];
      for (const [name, dir] of dirs) {
        sizes.push({ name, bytes: sizeOf(dir) });
        visit(join(dir, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  const merged = new Map();
  for (const s of sizes) merged.set(s.name, (merged.get(s.name) ?? 0) + s.bytes);
  return [...merged]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, n);
}

export const MB = 1_000_000;
export const KB = 1000;
export const fmtMB = (bytes) => `${(bytes / MB).toFixed(2)} MB`;
export const fmtKB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;

/**
 * What a browser app ships for `import { TrxRent } from 'trx-rent'`: esbuild bundles it (browser
 * platform, minified, dependencies such as zod bundled in, nothing marked external: an optional
 * peer the package named where a bundler looks would fail the bundle, as in an app) with code
 * splitting, so the chunks behind a lazy `import()` (TRON signing, payments) are apart. `gzip` is
 * the entry plus every chunk it imports statically, i.e. what loads with the import; `lazyGzip`
 * is everything else, loaded only when a feature needs it. `eagerInputs` are the source files
 * (packages included) with code in what loads at start-up, e.g. to assert that no file of zod's
 * classic API is among them.
 */
export async function browserImportSize(root, specifier = 'TrxRent', entry = 'dist/index.js') {
  const esbuild = await import('esbuild');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-size-'));
  try {
    const main = join(dir, 'entry.js');
    writeFileSync(main, `import { ${specifier} } from ${JSON.stringify(join(root, entry))};\nglobalThis.keep = ${specifier};\n`);
    const result = await esbuild.build({
      entryPoints: [main],
      bundle: true,
      minify: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outdir: join(dir, 'out'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const { resolve: resolvePath } = await import('node:path');
    // The entry's own output: a lazily imported module is an entry point of its chunk too, so
    // the first output with an entryPoint is not necessarily this one.
    const start = Object.keys(outputs).find((k) => outputs[k].entryPoint && resolvePath(outputs[k].entryPoint) === resolvePath(main));
    if (!start) throw new Error('browserImportSize: the entry has no output in the metafile');
    const eager = new Set();
    const stack = [start];
    while (stack.length) {
      const key = stack.pop();
      if (eager.has(key)) continue;
      eager.add(key);
      for (const i of outputs[key].imports) if (i.kind === 'import-statement' && outputs[i.path]) stack.push(i.path);
    }
    const { resolve } = await import('node:path');
    const eagerAbs = new Set([...eager].map((k) => resolve(k)));
    const eagerCode = [];
    const lazyCode = [];
    for (const file of result.outputFiles) (eagerAbs.has(file.path) ? eagerCode : lazyCode).push(Buffer.from(file.contents));
    // A measurement that finds no code is broken, not small: zod alone is tens of kB.
    if (eagerCode.length < 2)
      throw new Error(`browserImportSize: found ${eagerCode.length} eager chunk(s) of ${result.outputFiles.length}; the chunk graph was not read`);
    const joined = Buffer.concat(eagerCode);
    const eagerInputs = new Set();
    for (const key of eager) for (const [input, { bytesInOutput }] of Object.entries(outputs[key].inputs)) if (bytesInOutput > 0) eagerInputs.add(input);
    return {
      eagerInputs: [...eagerInputs].sort(),
      minified: joined.byteLength,
      gzip: gzipSync(joined, { level: 9 }).byteLength,
      lazyGzip: lazyCode.length ? gzipSync(Buffer.concat(lazyCode), { level: 9 }).byteLength : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
