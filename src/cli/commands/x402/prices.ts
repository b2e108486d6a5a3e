/**
 * `trx-rent x402 prices [resource]`: live energy and bandwidth prices from several providers,
 * shown with the columns and digit grouping of `trx-rent prices`.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { formatDuration, groupDigits, trxOf } from '../../format.js';
import { type Styles, renderTable } from '../../output.js';
import { RESOURCE_TYPES, orList } from '../../facts.js';
import { parseChoice } from '../../parse.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 prices` to `cmd`. */
export function registerX402Prices(cmd: Command): void {
  paidOptions(
    cmd
      .command('prices')
      .description('energy/bandwidth prices from several providers')
      .argument('[resource]', orList([...RESOURCES, 'all']), 'all'),
  ).action(action<[string], PaidOptions>(runX402Prices));
}

/** The resource types of the API, as the argument takes them. */
const RESOURCES = RESOURCE_TYPES.map((r) => r.toLowerCase() as Lowercase<(typeof RESOURCE_TYPES)[number]>);

async function runX402Prices(ctx: Context, { args: [resource], opts }: { args: [string]; opts: PaidOptions }) {
  const r = resource.toLowerCase();
  const query = r === 'all' ? {} : { resource: parseChoice(r, RESOURCES, 'resource').toUpperCase() as (typeof RESOURCE_TYPES)[number] };
  await paid(
    ctx,
    opts,
    ({ client }) => client.prices(query),
    (rows, s) => renderX402Prices(rows as unknown as Array<Record<string, unknown>>, s),
  );
}

/** x402 prices with the headers and digit grouping of `trx-rent prices` (SUN/UNIT, TIER, AVAILABLE). */
function renderX402Prices(rows: Array<Record<string, unknown>>, s: Styles): string {
  const sorted = [...rows].sort((a, b) => Number(a.price_sun) - Number(b.price_sun));
  return renderTable(
    [
      { header: 'PROVIDER', shrink: 0 },
      { header: 'RESOURCE', truncate: 'none' },
      { header: 'SUN/UNIT', align: 'right', truncate: 'none' },
      { header: 'TRX/UNIT', align: 'right', truncate: 'none' },
      { header: 'TIER', truncate: 'none' },
      { header: 'AVAILABLE', align: 'right', truncate: 'none' },
    ],
    sorted.map((r, i) => [
      i === 0 ? s.green(String(r.provider)) : String(r.provider),
      String(r.resource_type ?? '').toLowerCase(),
      String(r.price_sun),
      trxOf(Number(r.price_sun)),
      r.duration_sec === undefined ? '-' : formatDuration(Number(r.duration_sec)),
      r.available === undefined ? '-' : groupDigits(String(r.available)),
    ]),
    s,
  );
}
