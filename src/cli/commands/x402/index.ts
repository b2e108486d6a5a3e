/**
 * `trx-rent x402 <command>`: the twelve pay-per-call endpoints, each paid through x402, one file
 * per subcommand in this folder; this module registers them.
 *
 * The wallet comes from a key file (`--key-file`, `-` for stdin), the environment
 * (`TRX_RENT_X402_TRON_KEY`, `TRX_RENT_X402_EVM_KEY`) or a hidden prompt — never from a bare
 * argument (it would land in shell history and `ps`); settings.ts decides which (`./paid.ts`).
 * The price is shown before paying and confirmed (a terminal prompt, or `--yes` for scripts);
 * `--max-payment` caps what one call may cost (default: the x402 client's, the documented price).
 * @module
 */
import type { Command } from 'commander';
import { ENV } from '../../settings.js';
import type { CommandModule } from '../../types.js';
import { registerX402Account } from './account.js';
import { registerX402Estimate } from './estimate.js';
import { registerX402Invoice } from './invoice.js';
import { registerX402Network } from './network.js';
import { registerX402Prices } from './prices.js';
import { registerX402Receive } from './receive.js';
import { registerX402Rpc } from './rpc.js';
import { registerX402SendBatch } from './send-batch.js';
import { registerX402Send } from './send.js';
import { registerX402SwapExecute } from './swap-execute.js';
import { registerX402SwapQuote } from './swap-quote.js';
import { registerX402Watch } from './watch.js';

const command: CommandModule = {
  description:
    'Pay-per-call API (x402): each call is paid in USDT/USDC/USDD on TRON or USDC on Base from your ' +
    `wallet (--key-file, or ${ENV.x402TronKey} / ${ENV.x402EvmKey}, or a hidden prompt; never an argument; prefer the ` +
    'environment or a file in scripts). The price is shown before paying; confirm on the terminal or pass --yes. ' +
    '--max-payment caps one call (default: the documented price of a call).',
  register(cmd: Command) {
    registerX402Prices(cmd);
    registerX402Account(cmd);
    registerX402Estimate(cmd);
    registerX402SwapQuote(cmd);
    registerX402Network(cmd);
    registerX402Invoice(cmd);
    registerX402Watch(cmd);
    registerX402Receive(cmd);
    registerX402Send(cmd);
    registerX402SendBatch(cmd);
    registerX402SwapExecute(cmd);
    registerX402Rpc(cmd);
  },
};

export default command;
