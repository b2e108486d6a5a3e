/** The account: balance, spending history and its summary. Read-only. */
import * as z from 'zod';
import { Balance } from '../../schemas/balance.js';
import { HistoryList, HistoryQuery, HistorySummary } from '../../schemas/history.js';
import { NoInput, tool } from '../tool.js';

export const ACCOUNT_TOOLS = [
  tool({
    name: 'get_balance',
    title: 'Account balance',
    description:
      'The account balance, every amount an integer in SUN (1 TRX = 1,000,000 SUN): trx available, trx_locked in pending operations, ' +
      'and usdt in 6-decimal units (1 USDT = 1,000,000). Divide by 1,000,000 for TRX or USDT.',
    access: 'read',
    input: NoInput,
    output: Balance,
    async run(_args, { session, signal }) {
      return session.api.balance.get({ signal });
    },
  }),
  tool({
    name: 'get_history',
    title: 'Spending history',
    description: 'Fills of the account\'s orders over a period (7D default, 30D, 90D), newest first. price_sun is SUN per unit, cost_sun the total in SUN; amount is in resource units.',
    access: 'read',
    input: HistoryQuery,
    output: z.object({ fills: HistoryList }),
    fields: { period: '7D (default), 30D or 90D' },
    async run(args, { session, signal }) {
      return { fills: await session.api.history.list(args, { signal }) };
    },
  }),
  tool({
    name: 'get_history_summary',
    title: 'Spending summary',
    description: 'Totals over the whole account: total_orders, total_energy (units), total_spent_sun (SUN), avg_price_sun (SUN per energy unit).',
    access: 'read',
    input: NoInput,
    output: HistorySummary,
    async run(_args, { session, signal }) {
      return session.api.history.summary({ signal });
    },
  }),
];
