/**
 * The context as a composition root: services are made when first asked for, once per run, and
 * share what they resolve (the settings the client used are the ones the report names).
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import type { CliRuntime } from '../../src/cli/runtime.js';
import { createRun } from '../../src/cli/state.js';
import { TrxRentError } from '../../src/errors/index.js';
import { tempDir } from './run.js';

function context(opts: ConstructorParameters<typeof Context>[0] = {}, tty = false): { ctx: Context; stderr: () => string } {
  let err = '';
  const runtime: CliRuntime = {
    fetch: () => Promise.reject(new Error('no network')),
    stdout: { write: () => true, isTTY: tty },
    stderr: { write: (s: string) => (err += s), isTTY: tty },
    stdin: Object.assign(Readable.from([]), { isTTY: tty }),
    env: {},
    configDir: tempDir(),
    untilSignal: () => new Promise<string>(() => {}),
  };
  return { ctx: new Context(opts, 'orders get', createRun(runtime, '1.2.3')), stderr: () => err };
}

describe('the context', () => {
  it('makes each service once, on first use', () => {
    const { ctx } = context();
    expect(ctx.clients).toBe(ctx.clients);
    expect(ctx.config).toBe(ctx.config);
    expect(ctx.chain).toBe(ctx.chain);
    expect(ctx.ask).toBe(ctx.ask);
    expect(ctx.mocks).toBe(ctx.mocks);
  });

  it('decides output mode and interactivity from the options and the terminal', () => {
    expect(context().ctx.out.json).toBe(true);
    expect(context().ctx.interactive).toBe(false);
    expect(context({}, true).ctx.out.json).toBe(false);
    expect(context({}, true).ctx.interactive).toBe(true);
    expect(context({ yes: true }, true).ctx.interactive).toBe(false);
    expect(context({ yes: true }, true).ctx.ask.interactive).toBe(false);
    expect(context({ json: true }, true).ctx.interactive).toBe(false);
  });

  it('uses the settings it is given, and the client the command made is the one the report asks for the base URL', async () => {
    const refused = () => new TrxRentError({ code: 'CONNECTION_ERROR', message: 'fetch failed', details: { cause: 'refused' } });
    const { ctx, stderr } = context({ baseUrl: 'http://127.0.0.1:9' });
    expect(ctx.config.connection).toBeUndefined();
    await ctx.report(refused());
    expect(JSON.parse(stderr()).error.hint).toContain('nothing is listening at the API');
    const client = await ctx.clients.client({ auth: false });
    expect(client).toBe(await ctx.clients.client({ auth: false }));
    expect(client).toBe(ctx.clients.last);
    expect((await ctx.config.settings(false)).baseUrl).toMatchObject({ value: 'http://127.0.0.1:9', source: { kind: 'flag' } });
    const { ctx: after, stderr: afterErr } = context({ baseUrl: 'http://127.0.0.1:9' });
    await after.clients.client({ auth: false });
    await after.report(refused());
    expect(JSON.parse(afterErr()).error.hint).toContain('nothing is listening at 127.0.0.1:9 (base URL from --base-url)');
  });

  it('reports an error in one JSON line and runs its cleanups last first', async () => {
    const { ctx, stderr } = context();
    const order: number[] = [];
    ctx.onDispose(() => order.push(1));
    ctx.onDispose(() => order.push(2));
    await expect(ctx.ask.confirm('Delete?', 'delete it')).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(await ctx.report(await ctx.ask.inputs({ to: { value: undefined, label: '--to' } }).catch((e: unknown) => e))).toBe(2);
    expect(JSON.parse(stderr())).toMatchObject({ error: { code: 'MISSING_ARGUMENT', exit_code: 2 } });
    await ctx.dispose();
    expect(order).toEqual([2, 1]);
  });
});
