/**
 * Per-run state: `main()` creates one `Run` for each invocation and attaches it to that run's
 * commander program, so two runs in one process (tests, or a run inside another) never share an
 * exit code, output mode or commander message. Kept tiny and import-free: the entry imports it.
 */
import type { CliRuntime } from './runtime.js';

export interface Run {
  readonly runtime: CliRuntime;
  /** The package version (from package.json). */
  readonly version: string;
  /** The last action's exit code; `main()` resolves to it. */
  exitCode: number;
  /** The last error commander reported (main prints it in our one-line format). */
  commanderMessage?: string | undefined;
}

interface HasParent {
  parent: HasParent | null;
}

const runs = new WeakMap<object, Run>();
/** What each loaded top-level command declares it spends (its registry entry's `spends`). */
const spending = new WeakMap<object, true | readonly string[]>();

export function createRun(runtime: CliRuntime, version: string): Run {
  return { runtime, version, exitCode: 0 };
}

/** Tie `run` to the root `program` (every command under it finds it with `runOf`). */
export function attachRun(program: object, run: Run): void {
  runs.set(program, run);
}

/** The run a command (anywhere in the tree) belongs to. */
export function runOf(cmd: HasParent): Run {
  let root = cmd;
  while (root.parent) root = root.parent;
  const run = runs.get(root);
  if (!run) throw new Error('internal: a command outside a run');
  return run;
}

/** Records that the top-level command `cmd` spends (`true`) or which of its subcommands do. */
export function declareSpending(cmd: object, spends: true | readonly string[]): void {
  spending.set(cmd, spends);
}

/** Whether `cmd` (a top-level command or a subcommand of one) spends money, as its top-level command declared. */
export function spendsAt(cmd: HasParent & { name(): string }): boolean {
  let top = cmd;
  let sub: (HasParent & { name(): string }) | undefined;
  while (top.parent?.parent) {
    sub = top;
    top = top.parent as HasParent & { name(): string };
  }
  const spends = spending.get(top);
  return spends === true || (spends !== undefined && sub !== undefined && spends.includes(sub.name()));
}
