import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import type { PlainHandlers } from '../http/table.js';

type Account = Pick<typeof ACCOUNT_ENDPOINTS, 'getBalance' | 'listHistory' | 'getHistorySummary'>;

const DAY = 86_400_000;
const PERIODS: Record<string, number> = { '7D': 7 * DAY, '30D': 30 * DAY, '90D': 90 * DAY };

export const accountHandlers = {
  getBalance: { handle: ({ state, account }) => ({ status: 200, body: state.balance(account.id) }) },
  listHistory: {
    handle: ({ state, input: { query: q }, account }) => {
      const since = state.now() - PERIODS[q.period ?? '7D']!;
      // Newest first; fills made at the same moment keep the reverse of the order they were made in.
      const fills = state.orders
        .all(account.id)
        .flatMap((o) => o.fills)
        .filter((f) => f.status === 'CONFIRMED' && f.created_at >= since)
        .reverse()
        .sort((a, b) => b.created_at - a.created_at);
      return {
        status: 200,
        body: fills.map((f) => ({
          id: f.id,
          order_id: f.order_id,
          provider: f.provider,
          amount: f.amount,
          price_sun: f.price_sun,
          cost_sun: f.cost_sun,
          tx_id: f.tx_id,
          created_at: new Date(f.created_at).toISOString(),
          confirmed_at: f.confirmed_at === null ? null : new Date(f.confirmed_at).toISOString(),
          resource_type: f.resource_type,
        })),
      };
    },
  },
  getHistorySummary: {
    handle: ({ state, account }) => {
      let orders = 0;
      let energy = 0;
      let energyCost = 0;
      let spent = 0;
      for (const order of state.orders.all(account.id)) {
        const confirmed = order.fills.filter((f) => f.status === 'CONFIRMED');
        if (confirmed.length) orders++;
        for (const f of confirmed) {
          spent += f.cost_sun;
          if (f.resource_type === 'ENERGY') {
            energy += f.amount;
            energyCost += f.cost_sun;
          }
        }
      }
      return {
        status: 200,
        body: {
          total_orders: orders,
          total_energy: energy,
          total_spent_sun: spent,
          avg_price_sun: energy ? Math.round((energyCost / energy) * 100) / 100 : 0,
        },
      };
    },
  },
} satisfies PlainHandlers<Account>;
