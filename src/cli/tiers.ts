/**
 * A duration between two price tiers is charged at the next tier up (2h at the 1d price): the
 * preview's `best.duration_sec` is the tier matched. The CLI says so, with the tier charged and
 * the cheaper choice (the longest tier under the duration asked, priced by a second preview), so
 * nobody pays a day's price for two hours without a word (`preview`, `buy`).
 */
import type { Preview } from '../schemas/index.js';
import type { Context } from './context.js';
import { formatDuration, sunAndTrx } from './format.js';
import type { Styles } from './styles.js';
import type { QuoteRequest } from './quotes.js';
import { optionCostSun } from './views.js';

/** One priced choice: the tier, its best price per unit and the total in whole SUN. */
export interface TierChoice {
  duration_sec: number;
  provider: string;
  price_sun: number;
  cost_sun: number;
}

/** What `preview --json` and `buy --dry-run --json` carry as `tier` when the duration falls between tiers. */
export interface TierNote {
  /** The duration asked for. */
  requested_sec: number;
  /** The tier it is charged at (the best option's). */
  charged: TierChoice;
  /** The longest tier shorter than the duration asked, when one can fill it: cheaper, but shorter. */
  shorter: TierChoice | null;
}

/** The tier note for `preview` of `request`, or undefined when the duration is a tier (or nothing is quoted). */
export async function tierNote(ctx: Context, request: QuoteRequest, preview: Preview): Promise<TierNote | undefined> {
  const best = preview.best;
  if (!best || Number(best.duration_sec) <= request.duration_sec) return undefined;
  const charged = {
    duration_sec: Number(best.duration_sec),
    provider: best.provider,
    price_sun: Number(best.price_sun),
    cost_sun: optionCostSun(best, request.amount),
  };
  let shorter: TierChoice | null = null;
  try {
    const list = await (await ctx.clients.api('prices', { auth: false })).list({ maxRetries: 0, timeoutMs: 5_000 });
    const below = list
      .flatMap((p) => (request.resource === 'ENERGY' ? p.energy_prices : p.bandwidth_prices).map((t) => Number(t.duration_sec)))
      .filter((d) => d < request.duration_sec);
    if (below.length) {
      const duration = Math.max(...below);
      const lower = await (await ctx.clients.api('orders')).preview({
        resource: request.resource,
        amount: request.amount,
        duration,
        ...(request.max_price_sun !== undefined ? { max_price_sun: request.max_price_sun } : {}),
      });
      if (lower.best)
        shorter = {
          duration_sec: Number(lower.best.duration_sec),
          provider: lower.best.provider,
          price_sun: Number(lower.best.price_sun),
          cost_sun: optionCostSun(lower.best, request.amount),
        };
    }
  } catch {
    // Best effort: the charged tier is still named.
  }
  return { requested_sec: request.duration_sec, charged, shorter };
}

/** The note for people: the tier charged, and the cheaper choice with the flag that takes it. */
export function renderTierNote(note: TierNote, s: Styles): string {
  const asked = formatDuration(note.requested_sec);
  const tier = formatDuration(note.charged.duration_sec);
  let text = `${s.yellow('Note:')} no provider has a ${asked} tier: ${asked} is charged at the ${tier} tier, ${note.charged.price_sun} SUN per unit, ${sunAndTrx(note.charged.cost_sun)}.`;
  if (note.shorter) {
    const d = formatDuration(note.shorter.duration_sec);
    text += `\n      ${d} costs ${sunAndTrx(note.shorter.cost_sun)} (${note.shorter.price_sun} SUN per unit): pass -d ${d} if that is long enough.`;
  }
  return `${text}\n`;
}
