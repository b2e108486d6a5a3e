/**
 * `trx-rent chain balance ADDRESS [--token usdt]`: what an address holds on the TRON node (like
 * `cast balance`): its TRX and, with `--token`, that TRC-20 token's balance
 * (`client.chain.balance`), exact; and whether it is an account on chain. Read only.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { parseAddress } from '../../parse.js';
import { ENV } from '../../settings.js';

interface BalanceOptions {
  token?: string;
  tronNode?: string;
}

/** Register `chain balance` under `chain`. */
export function registerChainBalance(chain: Command): void {
  chain
    .command('balance')
    .description(
      'What ADDRESS holds on the TRON node: its TRX and, with --token, a TRC-20 token (USDT, USDC, USDD or a contract address), exact; ' +
        'and whether it is an account on chain (tokens alone do not make one: it needs TRX before it can receive energy or send). Read only.',
    )
    .usage('ADDRESS [--token usdt] [--tron-node URL] [--json]')
    .argument('<address>', 'the TRON address (base58, T…)')
    .option('--token <token>', 'also its balance of this TRC-20 token: USDT, USDC, USDD or a contract address')
    .option(
      '--tron-node <url>',
      `TRON full node to read (env ${ENV.tronNode}, profile tron_node; default: the mock's own when the base URL is a reference mock, else TronGrid)`,
    )
    .action(action<[string], BalanceOptions>(runBalance));
}

/**
 * Reads the node only: no account API, so no base URL or API key is needed (a base URL that is a
 * reference mock still lends its node, as for every command that reads the chain).
 */
async function runBalance(ctx: Context, { args: [addressArg], opts }: { args: [string]; opts: BalanceOptions }) {
  const address = await parseAddress(addressArg, 'ADDRESS');
  const setting = await ctx.chain.tronNode(opts.tronNode);
  const [{ TronNode }, { readBalance }] = await Promise.all([import('../../../tron/node.js'), import('../../../tron/balance.js')]);
  const node = new TronNode({ baseUrl: setting.url, apiKey: setting.apiKey, fetch: ctx.runtime.fetch, ...ctx.clients.requestLimits() });
  ctx.debug(`TRON node ${node.baseUrl}`);
  const held = await readBalance(node, address, { token: opts.token });
  ctx.out.result(held, () => {
    const s = ctx.out.s;
    const lines = [`${s.bold(held.trx)} TRX`];
    if (held.token) lines.push(`${s.bold(held.token.balance)} ${held.token.symbol ?? held.token.address}`);
    if (!held.activated) lines.push(s.dim(`${address} is not activated on chain: it must receive TRX before it can receive energy or send anything`));
    return `${lines.join('\n')}\n`;
  });
}
