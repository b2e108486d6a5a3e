import type { Order } from '../schemas/index.js';
import type { Context, LazyClient } from './context.js';
import { formatDuration } from './format.js';

/**
 * Follow an order to FILLED with the SDK's poller (backs off to the orders rate limit), showing
 * a spinner on stderr for people. FAILED rejects with OrderFailedError; the deadline with
 * TimeoutError (both exit 1).
 */
export async function waitForOrder(ctx: Context, client: LazyClient, id: string, timeoutMs: number): Promise<Order> {
  const started = Date.now();
  const spinner = ctx.out.spinner(`Waiting for order ${id} to fill…`);
  const tick = setInterval(() => {
    spinner.update(`Waiting for order ${id} to fill… ${formatDuration(Math.round((Date.now() - started) / 1000)) || '0s'}`);
  }, 1000);
  tick.unref();
  try {
    const order = await (await client.get('orders')).waitFor(id, { timeoutMs });
    spinner.stop(`${ctx.out.e.green('✓')} Order ${id} ${ctx.out.e.green('FILLED')} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return order;
  } catch (error) {
    spinner.stop();
    throw error;
  } finally {
    clearInterval(tick);
  }
}
