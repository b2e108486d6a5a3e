/**
 * Errors show their real class names: `err.name`, the first line of the stack and the class's
 * own `name`, in the built package (the bundler renamed the self-referencing base class
 * `_TrxRentError`), ESM and CJS alike, and in an application's minified bundle of it (where
 * every class is renamed by the minifier): every error class of every entry package.json
 * exports, so a new entry or class is checked without a list to keep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const DIST = join(import.meta.dirname, '..', '..', 'dist');
const out = mkdtempSync(join(tmpdir(), 'trx-rent-minified-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every public entry of the package (package.json `exports`, their ES module files), as `dist`-relative paths. */
const pkg = require('../../package.json') as { exports: Record<string, string | { import?: { default?: string } }> };
const ENTRIES = Object.values(pkg.exports)
  .map((target) => (typeof target === 'string' ? target : target.import?.default))
  .filter((file): file is string => typeof file === 'string' && file.endsWith('.js'))
  .map((file) => file.replace(/^\.\/dist\//, ''));

/** Try to construct an error class with the arguments most constructors take; undefined when it needs others. */
function construct(Class: unknown): Error | undefined {
  for (const args of [[{ code: 'X', message: 'boom', offers: [] }], ['boom', []], ['X', 'boom']]) {
    try {
      const error = new (Class as new (...a: unknown[]) => Error)(...args);
      if (error instanceof Error) return error;
    } catch {
      // another signature; try the next
    }
  }
  return undefined;
}

async function builds(): Promise<Array<[string, Record<string, unknown>]>> {
  return [
    ['esm', (await import('../../dist/index.js')) as Record<string, unknown>],
    ['cjs', require('../../dist/index.cjs') as Record<string, unknown>],
  ];
}

describe('error class names in the built package', () => {
  it('every exported error class names itself (err.name, stack, Class.name)', async () => {
    for (const [format, mod] of await builds()) {
      const classes = Object.entries(mod).filter(([name, value]) => /^[A-Z]\w*Error$/.test(name) && typeof value === 'function');
      expect(classes.length, format).toBeGreaterThan(15);
      for (const [name, Class] of classes) {
        expect((Class as { name: string }).name, `${format} ${name}.name`).toBe(name);
        let error: Error;
        try {
          error = new (Class as new (init: unknown) => Error)({ code: 'X', message: 'boom', offers: [] });
        } catch {
          continue; // a constructor that needs other arguments: its class name is checked above
        }
        expect(error.name, `${format} new ${name}().name`).toBe(name);
        expect(error.stack?.split('\n')[0], `${format} ${name} stack`).toMatch(new RegExp(`^${name}: `));
      }
    }
  });

  it('TrxRentError itself, thrown and caught', async () => {
    for (const [format, mod] of await builds()) {
      const TrxRentError = mod.TrxRentError as new (init: { code: string; message: string }) => Error;
      const error = new TrxRentError({ code: 'SOMETHING_NEW', message: 'an unknown code is kept' });
      expect(error.name, format).toBe('TrxRentError');
      expect(String(error), format).toBe('TrxRentError: an unknown code is kept');
      expect(error.stack, format).not.toContain('_TrxRentError');
      expect((error as unknown as { code: string }).code).toBe('SOMETHING_NEW');
    }
  });
});

describe('error class names in a minified bundle of dist', () => {
  it('every public error class keeps its name (Class.name, err.name, stack) after esbuild --minify', async () => {
    const seen: string[] = [];
    for (const entry of ENTRIES) {
      const file = join(out, entry.replace(/\//g, '-').replace(/\.js$/, '.min.mjs'));
      const result = await build({
        entryPoints: [join(DIST, entry)],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        outfile: file,
        write: true,
        metafile: false,
        logLevel: 'silent',
      });
      expect(result.errors, entry).toEqual([]);
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, Class] of Object.entries(mod)) {
        if (!/^[A-Z]\w*Error$/.test(name) || typeof Class !== 'function') continue;
        seen.push(name);
        expect((Class as { name: string }).name, `${entry} ${name}.name`).toBe(name);
        const error = construct(Class);
        if (!error) continue;
        expect(error.name, `${entry} new ${name}().name`).toBe(name);
        expect(error.stack?.split('\n')[0], `${entry} ${name} stack`).toMatch(new RegExp(`^${name}: `));
      }
    }
    // The bundles were really minified (classes renamed), and every entry's errors were seen.
    expect(ENTRIES).toEqual(expect.arrayContaining(['index.js', 'x402/index.js', 'webhooks/index.js', 'mock/index.js', 'rules/index.js', 'schemas/index.js']));
    expect(seen).toEqual(
      expect.arrayContaining(['TrxRentError', 'InvalidAddressError', 'PaymentRefusedError', 'WebhookSignatureError', 'MockApiError', 'RulesFileError']),
    );
    expect(seen.length).toBeGreaterThan(25);
  });

  it('the check can fail: without its name written out, a class is renamed by the minifier', async () => {
    const file = join(out, 'unnamed.min.mjs');
    await build({
      stdin: { contents: 'export class InvalidAddressError extends Error {}\nexport const made = new InvalidAddressError("x");', loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      outfile: file,
      write: true,
      logLevel: 'silent',
    });
    const mod = (await import(pathToFileURL(file).href)) as { InvalidAddressError: { name: string } };
    expect(mod.InvalidAddressError.name).not.toBe('InvalidAddressError');
  });
});
