/**
 * The mock-only webhook commands (`trigger`, `deliveries`, `reactivate`, `redeliver`) call the
 * mock's `/__mock/` control routes through this one helper.
 * @module
 */
import type { Context } from '../../context.js';
import { CliError, EXIT } from '../../errors.js';

/**
 * A call to one of the mock's `/__mock/` control routes with the run's base URL and key (the key
 * picks the account). A server without them (the live API) answers 404: said plainly.
 */
export async function mockControl(ctx: Context, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const client = await ctx.clients.client();
  const { unknown: anything } = await import('zod');
  try {
    const { data } = await client.http.request({
      method,
      path,
      schema: anything(),
      auth: true,
      ...(body !== undefined ? { body } : method === 'POST' ? { body: {} } : {}),
      options: { maxRetries: 0 },
    });
    return data;
  } catch (error) {
    const e = error as { status?: number; code?: string };
    if (e.status === 404 && e.code === 'NOT_FOUND' && /^No route /.test(String((error as Error).message))) {
      throw new CliError(
        'NOT_AVAILABLE',
        `${ctx.config.connection?.baseUrl?.value ?? client.http.baseUrl} has no ${path.split('?')[0]}: this command drives the mock server`,
        {
          exitCode: EXIT.USAGE,
          hint: 'run it against `trx-rent mock` (TRX_RENT_BASE_URL=http://127.0.0.1:8787) or with --mock',
        },
      );
    }
    throw error;
  }
}
