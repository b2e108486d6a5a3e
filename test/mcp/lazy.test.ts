import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PEER_VERSIONS } from '../../src/peers/index.js';

/**
 * The MCP SDK is an optional peer: declared as one, loaded only when `trx-rent mcp` starts, and
 * missing, it is a MISSING_PEER_DEPENDENCY error naming the exact install command. Needs the build.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'trx-rent.js');
const SDK = '@modelcontextprotocol/sdk';
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;

function node(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    input: '',
    env: { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'trx-rent-mcp-lazy-')), ...env },
  });
}

describe('the MCP SDK is an optional peer', () => {
  test('declared in package.json as an optional peer, in step with the loader', () => {
    expect(pkg.peerDependencies?.[SDK]).toBe(`^${PEER_VERSIONS[SDK]}`);
    expect(pkg.peerDependenciesMeta?.[SDK]).toEqual({ optional: true });
    expect(pkg.devDependencies?.[SDK]).toBe(PEER_VERSIONS[SDK]);
  });

  test('not installed: `trx-rent mcp` fails with the exact npm install line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-no-mcp-'));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
        if (specifier.startsWith('${SDK}')) {
          const error = new Error("Cannot find package '${SDK}' imported from " + context.parentURL);
          error.code = 'ERR_MODULE_NOT_FOUND';
          throw error;
        }
        return next(specifier, context);
      }`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
    );
    const r = node(['--import', pathToFileURL(join(dir, 'register.mjs')).href, bin, 'mcp', '--mock']);
    expect(r.status).not.toBe(0);
    const error = (JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('MISSING_PEER_DEPENDENCY');
    expect(error.message).toContain(`npm install ${SDK}@${PEER_VERSIONS[SDK]}`);
    expect(r.stdout).toBe('');
  });

  test('the CLI loads no MCP module for other commands or for `mcp --help`', () => {
    for (const args of [['--help'], ['mcp', '--help'], ['--version']]) {
      const log = join(mkdtempSync(join(tmpdir(), 'trx-rent-mcp-imports-')), 'imports.log');
      writeFileSync(log, '');
      const hooks = pathToFileURL(join(root, 'test', 'helpers', 'record-imports.mjs')).href;
      const code = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}); const { main } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'cli', 'index.js')).href)}); await main(${JSON.stringify(args)});`;
      const r = node(['--input-type=module', '-e', code], { TRX_RENT_IMPORT_LOG: log });
      expect(r.status, r.stderr).toBe(0);
      const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(urls.some((u) => u.includes('/dist/cli/index.js'))).toBe(true);
      expect(
        urls.filter((u) => u.includes('@modelcontextprotocol')),
        args.join(' '),
      ).toEqual([]);
    }
  });
});

describe('where MCP code lives', () => {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  const specifiers = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const files = walk(join(root, 'src')).filter((f) => f.endsWith('.ts'));

  test('src/mcp imports neither the CLI nor the mock (the command passes it plain options)', () => {
    for (const file of files.filter((f) => f.includes(`${join('src', 'mcp')}`))) {
      const bad = specifiers(file).filter((s) => /(^|\/)(cli|mock)\//.test(s));
      expect(bad, relative(root, file)).toEqual([]);
    }
  });

  test('only the peer loader imports the SDK at run time, and only the mcp command reaches src/mcp', () => {
    for (const file of files) {
      const rel = relative(root, file).split('\\').join('/');
      const runtimeSdk = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes(SDK) && !/^\s*(\*|\/\/|\/\*)/.test(l) && !/^import type /.test(l.trim()));
      if (rel !== 'src/peers/index.ts') expect(runtimeSdk, rel).toEqual([]);
      if (!rel.startsWith('src/mcp/') && rel !== 'src/cli/commands/mcp.ts') {
        expect(
          specifiers(file).filter((s) => /(^|\/)mcp\//.test(s)),
          rel,
        ).toEqual([]);
      }
    }
  });
});
