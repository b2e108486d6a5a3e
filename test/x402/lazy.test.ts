import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';

/**
 * Light core: nothing reachable from `src/index.ts` through static imports pulls viem, tronweb,
 * @x402/* or x402-fetch (deposits.create reaches tronweb only through a dynamic import inside the
 * method), and the built `trx-rent/x402` loads none of them until a payment needs them.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const HEAVY = /^(viem|tronweb|x402|x402-fetch|@x402\/.*|ox|ethers)(\/|$)/;

async function staticPackages(entry: string): Promise<{ packages: Set<string>; dynamic: Set<string> }> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const start = Object.keys(inputs).find((k) => k.endsWith(entry))!;
  const seen = new Set<string>([start]);
  const queue = [start];
  const packages = new Set<string>();
  const dynamic = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    for (const imp of inputs[file]?.imports ?? []) {
      if (imp.kind === 'dynamic-import') {
        dynamic.add(imp.path);
        continue;
      }
      if (imp.external) packages.add(imp.path);
      else if (!seen.has(imp.path)) {
        seen.add(imp.path);
        queue.push(imp.path);
      }
    }
  }
  return { packages, dynamic };
}

/** Every module URL a fresh node process resolves while running `code` (ESM). */
function esmImports(code: string): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'trx-rent-x402-imports-')), 'imports.log');
  const hooks = new URL('../helpers/record-imports.mjs', import.meta.url).href;
  const script = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}); ${code}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, TRX_RENT_IMPORT_LOG: log } });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('light core', () => {
  test('src/index.ts statically imports none of viem, tronweb, @x402/*, x402-fetch', async () => {
    const { packages, dynamic } = await staticPackages('src/index.ts');
    expect([...packages].filter((p) => HEAVY.test(p))).toEqual([]);
    // The core's schemas are zod/mini: a bundler drops what they do not use; zod's classic API is not imported.
    expect(packages.has('zod/mini')).toBe(true);
    expect(packages.has('zod')).toBe(false);
    // deposits.create loads tronweb lazily, from inside the method, through the one peer loader
    expect([...dynamic].some((p) => p.endsWith('src/peers/index.ts'))).toBe(true);
  });

  test('src/x402/index.ts imports no peer either: they load on the first payment, through the peer loader, by a name no bundler follows', async () => {
    const { packages, dynamic } = await staticPackages('src/x402/index.ts');
    expect([...packages].filter((p) => HEAVY.test(p))).toEqual([]);
    expect([...dynamic].filter((p) => HEAVY.test(p))).toEqual([]);
    const { PEER_MODULES } = await import('../../src/peers/index.js');
    for (const peer of ['viem', 'viem/accounts', '@x402/core/client', '@x402/evm/exact/client']) expect(PEER_MODULES).toContain(peer);
  });

  test("the built 'trx-rent' (with deposits.create) loads nothing heavy at import", () => {
    const urls = esmImports("await import('trx-rent')");
    expect(urls.some((u) => u.includes('/dist/index.js'))).toBe(true);
    expect(urls.filter((u) => /node_modules\/(viem|tronweb|ox|@x402|x402|x402-fetch)\//.test(u))).toEqual([]);
  });

  test("the built 'trx-rent/x402' (ESM and CJS) loads nothing heavy at import", () => {
    const esm = join(root, 'dist', 'x402', 'index.js');
    expect(existsSync(esm), 'build first: npx tsup').toBe(true);
    const urls = esmImports("const m = await import('trx-rent/x402'); if (typeof m.X402Client !== 'function') process.exit(3);");
    expect(urls.some((u) => u.includes('/dist/x402/index.js'))).toBe(true);
    expect(urls.filter((u) => /node_modules\/(viem|tronweb|ox|@x402|x402|x402-fetch)\//.test(u))).toEqual([]);
    const cjs = execFileSync(process.execPath, ['-e', "require('trx-rent/x402'); console.log(JSON.stringify(Object.keys(require.cache)))"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect((JSON.parse(cjs) as string[]).filter((m) => /node_modules[\\/](viem|tronweb|ox|@x402|x402|x402-fetch)[\\/]/.test(m))).toEqual([]);
  });
});
