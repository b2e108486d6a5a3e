/**
 * Errors show their real class names: `err.name`, the first line of the stack and the class's
 * own `name`, in the built package (the bundler renamed the self-referencing base class
 * `_TrxRentError`), ESM and CJS alike.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

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
