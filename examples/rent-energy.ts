/**
 * Rent energy for one USDT transfer and wait for it, with the errors a caller can act on.
 * Run against the mock: npx trx-rent mock --port 8787, then
 * TRX_RENT_BASE_URL=http://127.0.0.1:8787 TRX_RENT_API_KEY=<printed key> npx tsx examples/rent-energy.ts
 */
import { InsufficientBalanceError, OrderFailedError, TrxRent, sunToTrx } from 'trx-rent';

const client = new TrxRent(); // TRX_RENT_BASE_URL and TRX_RENT_API_KEY from the environment
const target = process.argv[2] ?? 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

const preview = await client.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
if (!preview.best) throw new Error('No provider can fill 65 000 energy for 1 hour right now');
console.log(`best: ${preview.best.provider} at ${preview.best.price_sun} SUN/unit (${preview.best.cost_trx} TRX)`);

try {
  const order = await client.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: target });
  const filled = await client.orders.waitFor(order.id, { timeoutMs: 60_000 });
  console.log(`filled: ${sunToTrx(filled.total_cost_sun ?? 0)} TRX`);
  for (const fill of filled.fills ?? []) console.log(`  ${fill.provider} ${fill.amount} units ${fill.tronscan_url}`);
} catch (error) {
  if (error instanceof InsufficientBalanceError) console.error('Top up first: trx-rent deposit prepare');
  else if (error instanceof OrderFailedError) console.error('The order failed:', error.order);
  else throw error;
}
