import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../../src/http/env.js';

/**
 * Deno asks the person at the terminal before a read of a variable it was not allowed; the SDK
 * must read only what is already allowed (checked with Deno's permission API), never prompt.
 */
describe('env() under Deno permissions', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it('reads a variable Deno already allows, and none it would have to ask for (process.env untouched)', () => {
    vi.stubEnv('TRX_RENT_TEST_ALLOWED', 'yes');
    vi.stubEnv('TRX_RENT_TEST_ASK', 'secret');
    const asked: string[] = [];
    vi.stubGlobal('Deno', {
      permissions: {
        querySync: ({ variable }: { variable: string }) => {
          asked.push(variable);
          return { state: variable === 'TRX_RENT_TEST_ALLOWED' ? 'granted' : 'prompt' };
        },
      },
    });
    const reads: PropertyKey[] = [];
    const realEnv = process.env;
    vi.spyOn(process, 'env', 'get').mockReturnValue(
      new Proxy(realEnv, {
        get: (target, key) => {
          reads.push(key);
          return Reflect.get(target, key);
        },
      }),
    );
    expect(env('TRX_RENT_TEST_ALLOWED')).toBe('yes');
    expect(env('TRX_RENT_TEST_ASK')).toBeUndefined();
    expect(asked).toEqual(['TRX_RENT_TEST_ALLOWED', 'TRX_RENT_TEST_ASK']);
    expect(reads).toEqual(['TRX_RENT_TEST_ALLOWED']);
    vi.restoreAllMocks();
  });

  it('a denied or throwing permission check reads nothing', () => {
    vi.stubEnv('TRX_RENT_TEST_X', 'x');
    vi.stubGlobal('Deno', { permissions: { querySync: () => ({ state: 'denied' }) } });
    expect(env('TRX_RENT_TEST_X')).toBeUndefined();
    vi.stubGlobal('Deno', {
      permissions: {
        querySync: () => {
          throw new Error('NotCapable');
        },
      },
    });
    expect(env('TRX_RENT_TEST_X')).toBeUndefined();
  });

  it('outside Deno (Node, Bun) reads process.env as before; empty is unset', () => {
    vi.stubEnv('TRX_RENT_TEST_X', 'x');
    vi.stubEnv('TRX_RENT_TEST_EMPTY', '');
    expect(env('TRX_RENT_TEST_X')).toBe('x');
    expect(env('TRX_RENT_TEST_EMPTY')).toBeUndefined();
  });
});
