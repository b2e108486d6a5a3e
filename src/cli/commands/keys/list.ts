/**
 * `trx-rent keys list`: API keys cannot be listed (the API has no endpoint for it); says so, and
 * what to do instead, because it is what people try first.
 * @module
 */
import type { Command } from 'commander';
import { action } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Add `keys list` to `cmd`. */
export function registerKeysList(cmd: Command): void {
  cmd.command('list').description('(keys cannot be listed: explains why and what to do)').action(action(runKeysList));
}

async function runKeysList() {
  throw new UsageError(
    'API keys cannot be listed: the API has no endpoint for it (a secret is shown once, when the key is created)',
    'see which key this profile uses with `trx-rent status`; make one with `trx-rent keys create`; revoke one by its id with `trx-rent keys revoke ID`',
    'NOT_AVAILABLE',
  );
}
