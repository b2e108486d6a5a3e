import type { Command } from 'commander';
import { action } from '../context.js';
import { trxAndSun, trxOf } from '../format.js';
import { renderPairs } from '../tables.js';
import type { CommandModule } from '../types.js';

const command: CommandModule = {
  description: 'Available and locked TRX, and USDT. JSON keeps the API units (SUN).',
  register(cmd: Command) {
    cmd.action(
      action(async (ctx) => {
        const client = await ctx.clients.client();
        const balance = await (await client.get('balance')).get();
        ctx.out.result(balance, () =>
          renderPairs(
            [
              ['TRX available', ctx.out.s.bold(trxAndSun(Number(balance.trx)))],
              ['TRX locked', trxAndSun(Number(balance.trx_locked))],
              ['USDT', `${trxOf(Number(balance.usdt))} USDT`],
            ],
            ctx.out.s,
          ),
        );
      }),
    );
  },
};

export default command;
