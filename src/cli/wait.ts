import type { Order } from '../schemas/index.js';
import type { Context } from './context.js';
import type { LazyClient } from './services/client.js';
import { InterruptedError } from './errors.js';
import { formatDuration } from './format.js';

/**
 * Follow an order to FILLED with the SDK's poller (backs off to the orders rate limit), showing
 * a spinner with the last status on stderr for people.
 *
 * - Any other final status (FAILED, CANCELLED, PARTIALLY_FILLED, EXPIRED) stops the wait at once:
 *   OrderFailedError naming it (exit 1); the deadline: TimeoutError (exit 1).
 * - Ctrl+C (or SIGTERM) stops polling at once: InterruptedError with the order id, its last
 *   status and the command that resumes watching (exit 130). The order itself goes on.
 */
export async function waitForOrder(
  ctx: Context,
  client: LazyClient,
  id: string,
  timeoutMs: number,
  { resumable = true }: { resumable?: boolean } = {},
): Promise<Order> {
  const started = Date.now();
  const seconds = () => formatDuration(Math.round((Date.now() - started) / 1000)) || '0s';
  let last: Order | undefined;
  let lastAt = started;
  const spinner = ctx.out.spinner(`Waiting for order ${id} to fill…`);
  const label = () => `Waiting for order ${id} to fill… ${last ? `${String(last.status)}, ` : ''}${seconds()}`;
  const tick = setInterval(() => spinner.update(label()), 1000);
  tick.unref();
  const stop = new AbortController();
  const orders = await client.get('orders');
  const interrupted = ctx.untilSignal(stop.signal).then((signal): never => {
    const status = last ? String(last.status) : 'unknown (not polled yet)';
    const ago = last ? `, seen ${Math.max(0, Math.round((Date.now() - lastAt) / 1000))} s ago` : '';
    const resume = resumable ? ctx.resumeCommand(`orders wait ${id}`) : undefined;
    throw new InterruptedError(
      `Interrupted (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}) after ${seconds()}: order ${id} is ${status}${ago}. ` +
        (resume ? 'It goes on without this wait.' : 'The embedded mock ends with this run.'),
      { signal, resume, details: { order_id: id, status: last?.status ?? null, ...(resume ? { resume } : {}) } },
    );
  });
  try {
    const order = await Promise.race([
      orders.waitFor(id, {
        timeoutMs,
        signal: stop.signal,
        onStatus: (o) => {
          last = o;
          lastAt = Date.now();
          spinner.update(label());
        },
      }),
      interrupted,
    ]);
    spinner.stop(`${ctx.out.e.green('✓')} Order ${id} ${ctx.out.e.green('FILLED')} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return order;
  } catch (error) {
    spinner.stop();
    throw error;
  } finally {
    clearInterval(tick);
    // Stops the poll (if Ctrl+C won the race) and the signal listener (if the poll did).
    stop.abort();
  }
}
