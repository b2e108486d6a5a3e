import type { Command } from 'commander';

/**
 * What every file under `src/cli/commands/` exports as its default export.
 *
 * The entry registers each command upfront from the static registry (name + summary only) and
 * imports the module only when that command is dispatched (to run it or to show its help). Then
 * `register` adds the command's arguments, options, subcommands and actions to the already-named
 * commander `Command`. A module that exports no `register` is listed but reports that it is not
 * available in this build.
 *
 * Rules: import only light things at the top of a command module (`commander` types, `../context.js`,
 * `../parse.js`, `../format.js`); reach the SDK, prompts, the profile store and the mock through the context
 * (`ctx.clients.client()`, `ctx.ask.prompts()`, `ctx.config.store()`, `ctx.mocks.start()`), which import them lazily.
 */
export interface CommandModule {
  /** Longer description shown by `trx-rent <name> --help`. */
  description: string;
  /** Add arguments, options, subcommands and actions to the already-named `cmd`. */
  register?(cmd: Command, host: CommandHost): void;
}

/**
 * What the program offers a command module besides its own `Command`. Passed in, not imported,
 * so no command module imports the program or the registry (that would be an import cycle).
 */
export interface CommandHost {
  /** The root program with every command's module loaded (used by `completion`). */
  loadAll(): Promise<Command>;
}
