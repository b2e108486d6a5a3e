/**
 * `trx-rent keys <command>`: the account's API keys (create, list, revoke) and the TRON keys of
 * an HD wallet (derive: deposit addresses from a mnemonic file). One file per subcommand in this
 * folder; this module registers them.
 * @module
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../types.js';
import { registerKeysCreate } from './create.js';
import { registerKeysDerive } from './derive.js';
import { registerKeysList } from './list.js';
import { registerKeysRevoke } from './revoke.js';

const command: CommandModule = {
  description:
    "Create an API key (its secret is printed once, as the command's output) or revoke one " +
    '(immediate and irreversible; asks to confirm unless --yes); derive TRON deposit addresses ' +
    "from an HD wallet's mnemonic file (never printed).",
  register(cmd: Command) {
    registerKeysCreate(cmd);
    registerKeysList(cmd);
    registerKeysRevoke(cmd);
    registerKeysDerive(cmd);
  },
};

export default command;
