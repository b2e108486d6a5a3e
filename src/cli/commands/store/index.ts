/**
 * `trx-rent store <command>`: the PostgreSQL store that workers on several hosts share
 * (`--store postgres://…` or `TRX_RENT_STORE`): `status`, `migrate` and `import`. One file per subcommand
 * in this folder; this module registers them.
 * @module
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../types.js';
import { registerStoreImport } from './import.js';
import { registerStoreMigrate } from './migrate.js';
import { registerStoreStatus } from './status.js';

const command: CommandModule = {
  description:
    'The PostgreSQL store (--store postgres://… or TRX_RENT_STORE): `status` (journals, shared batches by state, open leases) and `migrate` ' +
    "(create or update its tables; --dry-run) and `import` (a file journal into it). The file store, the default, needs neither. The URL's password is never printed.",
  register(cmd: Command) {
    registerStoreStatus(cmd);
    registerStoreMigrate(cmd);
    registerStoreImport(cmd);
  },
};

export default command;
