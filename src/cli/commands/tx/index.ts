/**
 * `trx-rent tx`: what became of a transfer (`tx TXID`), and a transaction that several keys
 * approve (a multi-signature account), kept in a file between approvers: `tx sign FILE` adds a
 * signature, `tx approvals FILE` shows who approved and the weight still missing, `tx broadcast
 * FILE` sends it once the threshold is met. One file per subcommand in this folder.
 * @module
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../types.js';
import { registerTxApprovals } from './approvals.js';
import { registerTxBroadcast } from './broadcast.js';
import { registerTxSign } from './sign.js';
import { registerTxStatus } from './status.js';

const command: CommandModule = {
  description:
    'What became of a transfer: confirmed or failed (its receipt on the TRON node), expired (in no block and the ' +
    'solidified block is past its expiration: it can never land), or pending. Read only. And a multi-signature ' +
    'transaction kept in a file: `tx sign FILE` adds a signature (offline), `tx approvals FILE` shows who approved ' +
    'and the weight missing, `tx broadcast FILE` sends it once the threshold is met.',
  register(cmd: Command) {
    registerTxStatus(cmd);
    registerTxSign(cmd);
    registerTxApprovals(cmd);
    registerTxBroadcast(cmd);
  },
};

export default command;
