/** Prices and previews: public prices of every provider, and what an order would cost now. */
import * as z from 'zod';
import { LIMITS } from '../../schemas/limits.js';
import { PriceList, Preview, PreviewQuery } from '../../schemas/prices.js';
import { NoInput, tool } from '../tool.js';

export const PRICE_TOOLS = [
  tool({
    name: 'get_prices',
    title: 'Provider prices',
    description:
      'Every active provider\'s price tiers for TRON energy and bandwidth (refreshed every 30 s; public). ' +
      'price_sun is SUN per unit of resource for a rental of duration_sec seconds (1 TRX = 1,000,000 SUN). Free; spends nothing.',
    access: 'read',
    input: NoInput,
    output: z.object({ providers: PriceList }),
    async run(_args, { session, signal }) {
      return { providers: await session.api.prices.list({ signal }) };
    },
  }),
  tool({
    name: 'preview_order',
    title: 'Preview an order',
    description:
      'What an order would cost now, with the same provider selection as create_order; places nothing and spends nothing. ' +
      `amount is in resource units (at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY), duration in seconds. ` +
      'Returns the best provider (price_sun: SUN per unit; cost_trx: total in TRX, not SUN) and the fallbacks.',
    access: 'read',
    input: PreviewQuery,
    output: Preview,
    fields: {
      resource: 'ENERGY or BANDWIDTH',
      amount: `Resource units to rent (not SUN); at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY`,
      duration: 'Rental duration in seconds, e.g. 3600 for one hour',
      max_price_sun: 'Optional: exclude providers above this price, in SUN per unit',
    },
    async run(args, { session, signal }) {
      return session.api.orders.preview(args, { signal });
    },
  }),
];
