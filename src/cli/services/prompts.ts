/**
 * The prompts service: questions for a person at a terminal. The @inquirer prompt packages are
 * imported only when one is asked, and bound to the run's terminal; `confirm` guards what spends
 * or cannot be undone, `inputs` fills in missing arguments. Without a terminal neither asks:
 * both fail with a usage error (exit 2) that says what to pass. Every question asked holds the
 * output's status line (`Output.hold()`) until it is answered, so no spinner or progress line
 * draws over a question that waits.
 * @module
 */
import { Writable } from 'node:stream';
import { CancelledError, UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';
import { type CliRuntime, isProcessStream } from '../runtime.js';
import { sanitizeText } from '../sanitize.js';

// The five prompts the CLI asks, as separate packages: @inquirer/prompts would also bring the
// editor, expand, number, rawlist and search prompts with iconv-lite and chardet (10 packages).
interface PromptsModule {
  input: typeof import('@inquirer/input').default;
  password: typeof import('@inquirer/password').default;
  select: typeof import('@inquirer/select').default;
  confirm: typeof import('@inquirer/confirm').default;
  checkbox: typeof import('@inquirer/checkbox').default;
}

async function loadPrompts(): Promise<PromptsModule> {
  const [input, password, select, confirm, checkbox] = await Promise.all([
    import('@inquirer/input'),
    import('@inquirer/password'),
    import('@inquirer/select'),
    import('@inquirer/confirm'),
    import('@inquirer/checkbox'),
  ]);
  return { input: input.default, password: password.default, select: select.default, confirm: confirm.default, checkbox: checkbox.default };
}

/** The prompts the CLI asks with, bound to the run's terminal. */
export type Prompts = Pick<PromptsModule, 'input' | 'password' | 'select' | 'confirm' | 'checkbox'>;

/** One input a command needs: the value given, how it is named, how to ask for it, its default. */
export interface InputSpec<T> {
  /** The value from the command line, or undefined when missing. */
  value: T | undefined;
  /** How the missing value is named in the usage error, e.g. `--to ADDRESS`. */
  label: string;
  /** Asks a person for it. */
  ask?: (prompts: Prompts, soFar: Record<string, unknown>) => Promise<T>;
  /** Used without a terminal (and when there is no prompt). */
  default?: T;
}

/** Asking a person: the prompts on the run's terminal, confirmations and missing inputs. */
export class PromptService {
  /** A person is there: stdin and stdout are TTYs, and neither --json nor --yes rules prompts out. */
  readonly interactive: boolean;
  readonly #opts: Pick<GlobalOptions, 'yes' | 'json'>;
  readonly #runtime: Pick<CliRuntime, 'stdin' | 'stdout'>;
  readonly #hold: () => () => void;

  constructor(options: {
    interactive: boolean;
    opts: Pick<GlobalOptions, 'yes' | 'json'>;
    runtime: Pick<CliRuntime, 'stdin' | 'stdout'>;
    /** Takes the status line off the screen until the returned function is called (`Output.hold`). */
    hold?: (() => () => void) | undefined;
  }) {
    this.interactive = options.interactive;
    this.#opts = options.opts;
    this.#runtime = options.runtime;
    this.#hold = options.hold ?? (() => () => undefined);
  }

  /**
   * The prompts, on the run's terminal (only when {@link interactive}); each holds the status
   * line while it waits for its answer.
   */
  async prompts(): Promise<Prompts> {
    const raw = await this.#rawPrompts();
    const held =
      <C, R>(ask: (config: C) => Promise<R>) =>
      async (config: C): Promise<R> => {
        const release = this.#hold();
        try {
          return await ask(config);
        } finally {
          release();
        }
      };
    return {
      input: held(raw.input) as PromptsModule['input'],
      password: held(raw.password) as PromptsModule['password'],
      select: held(raw.select) as PromptsModule['select'],
      confirm: held(raw.confirm) as PromptsModule['confirm'],
      checkbox: held(raw.checkbox) as PromptsModule['checkbox'],
    };
  }

  /** The prompt packages bound to the run's terminal. */
  async #rawPrompts(): Promise<Prompts> {
    if (!this.interactive) throw new Error('internal: prompts need a terminal');
    const mod = await loadPrompts();
    const { stdin, stdout } = this.#runtime;
    if (isProcessStream(stdin) && isProcessStream(stdout)) return mod;
    // Another terminal than the process's (an in-process run): ask on the run's streams. The
    // prompts pipe into their output, so a plain writer is wrapped in a stream.
    const output: NodeJS.WritableStream =
      typeof (stdout as { on?: unknown }).on === 'function'
        ? (stdout as NodeJS.WritableStream)
        : Object.assign(
            new Writable({
              write(chunk: Buffer | string, _encoding, done) {
                stdout.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
                done();
              },
            }),
            { isTTY: stdout.isTTY, columns: stdout.columns },
          );
    const context = { input: stdin as NodeJS.ReadableStream, output };
    return {
      input: ((config: Parameters<PromptsModule['input']>[0]) => mod.input(config, context)) as PromptsModule['input'],
      password: ((config: Parameters<PromptsModule['password']>[0]) => mod.password(config, context)) as PromptsModule['password'],
      select: ((config: Parameters<PromptsModule['select']>[0]) => mod.select(config, context)) as PromptsModule['select'],
      confirm: ((config: Parameters<PromptsModule['confirm']>[0]) => mod.confirm(config, context)) as PromptsModule['confirm'],
      checkbox: ((config: Parameters<PromptsModule['checkbox']>[0]) => mod.checkbox(config, context)) as PromptsModule['checkbox'],
    };
  }

  /**
   * Ask before doing something that spends money or cannot be undone. `--yes` answers yes;
   * without a terminal the command fails with exit 2 and does nothing.
   */
  async confirm(message: string, what: string): Promise<void> {
    if (this.#opts.yes) return;
    if (!this.interactive) {
      throw new UsageError(
        `refusing to ${what} without confirmation (no terminal to ask on)`,
        'pass --yes to confirm non-interactively',
        'CONFIRMATION_REQUIRED',
      );
    }
    const { confirm } = await this.prompts();
    // The prompt writes to the terminal itself, not through Output: sanitise here (ids and
    // names in the question may have come from a server).
    const ok = await confirm({ message: sanitizeText(message), default: false });
    if (!ok) throw new CancelledError();
  }

  /**
   * Fill in missing inputs: given value > prompt (when a person is there) > default > error.
   * Without a terminal every missing input is named in one usage error (exit 2), at once.
   */
  async inputs<T extends Record<string, unknown>>(specs: { [K in keyof T]: InputSpec<T[K]> }): Promise<T> {
    const result: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const [key, spec] of Object.entries(specs) as Array<[string, InputSpec<unknown>]>) {
      if (spec.value !== undefined) result[key] = spec.value;
      else if (!(this.interactive && spec.ask) && spec.default !== undefined) result[key] = spec.default;
      else if (!this.interactive || !spec.ask) missing.push(spec.label);
    }
    if (missing.length) {
      throw new UsageError(
        `missing ${missing.join(', ')}`,
        this.#opts.yes || this.#opts.json
          ? 'pass them as arguments (prompts are off with --yes/--json)'
          : 'pass them as arguments, or run on a terminal to be asked',
        'MISSING_ARGUMENT',
      );
    }
    for (const [key, spec] of Object.entries(specs) as Array<[string, InputSpec<unknown>]>) {
      if (key in result) continue;
      result[key] = await spec.ask!(await this.prompts(), { ...result });
    }
    return result as T;
  }
}
