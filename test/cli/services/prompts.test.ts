/**
 * The prompts service without a person at a terminal: it never asks, and says what to pass
 * instead (exit 2), all missing inputs at once; `--yes` answers a confirmation, defaults fill
 * what has one.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/errors.js';
import { PromptService } from '../../../src/cli/services/prompts.js';

const runtime = { stdin: Object.assign(Readable.from([]), { isTTY: false }), stdout: { write: () => true, isTTY: false } };
const noTerminal = (opts: { yes?: boolean; json?: boolean } = {}) => new PromptService({ interactive: false, opts, runtime });

describe('the prompts service without a terminal', () => {
  it('refuses to confirm (CONFIRMATION_REQUIRED, exit 2) unless --yes answers', async () => {
    const refused = await noTerminal()
      .confirm('Buy 65,000 energy for 2.275 TRX?', 'place an order')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused).toMatchObject({ code: 'CONFIRMATION_REQUIRED', exitCode: 2, hint: 'pass --yes to confirm non-interactively' });
    expect((refused as Error).message).toBe('refusing to place an order without confirmation (no terminal to ask on)');
    await expect(noTerminal({ yes: true }).confirm('Buy?', 'place an order')).resolves.toBeUndefined();
  });

  it('names every missing input in one usage error, and takes given values and defaults', async () => {
    const ask = () => Promise.resolve('asked');
    const missing = await noTerminal()
      .inputs<{ to: string; amount: string; duration: string }>({
        to: { value: undefined, label: '--to ADDRESS', ask },
        amount: { value: undefined, label: 'AMOUNT', ask },
        duration: { value: undefined, label: '--duration', default: '1h', ask },
      })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({
      code: 'MISSING_ARGUMENT',
      exitCode: 2,
      message: 'missing --to ADDRESS, AMOUNT',
      hint: 'pass them as arguments, or run on a terminal to be asked',
    });
    const quiet = await noTerminal({ json: true })
      .inputs<{ to: string }>({ to: { value: undefined, label: '--to ADDRESS' } })
      .catch((e: unknown) => e);
    expect(quiet).toMatchObject({ hint: 'pass them as arguments (prompts are off with --yes/--json)' });
    await expect(
      noTerminal().inputs<{ to: string; duration: string }>({
        to: { value: 'TJCn', label: '--to', ask },
        duration: { value: undefined, label: '--duration', default: '1h', ask },
      }),
    ).resolves.toEqual({ to: 'TJCn', duration: '1h' });
  });

  it('loads no prompt without a terminal', async () => {
    await expect(noTerminal().prompts()).rejects.toThrow('internal: prompts need a terminal');
  });
});
