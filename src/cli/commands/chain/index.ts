/**
 * `trx-rent chain <command>`: read the TRON chain through the run's node (like Foundry's `cast`):
 * `balance`. One file per subcommand in this folder; this module registers them.
 * @module
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../types.js';
import { registerChainBalance } from './balance.js';

const command: CommandModule = {
  description:
    "Read the TRON chain on the run's node (--tron-node, TRX_RENT_TRON_NODE, the profile's tron_node, the mock's own when the base URL is a mock, else TronGrid), " +
    'like `cast`: `balance` (TRX and tokens). Read only.',
  register(cmd: Command) {
    registerChainBalance(cmd);
  },
};

export default command;
