/**
 * Why a provider that lists a price did not quote an order: the preview names only the
 * providers that can fill it, so the CLI compares it with the public price list. A provider that
 * offers the duration, has the units and is within --max-price, yet did not quote, is one whose
 * minimum order is above the amount (or it is offline this poll; the API does not say which).
 */
import type { Preview } from '../schemas/index.js';
import type { Context } from './context.js';
import { formatDuration, groupDigits } from './format.js';
import type { Styles } from './styles.js';
import type { Resource } from './parse.js';
import { rankPrices } from './commands/prices.js';

export interface Unquoted {
  provider: string;
  price_sun: number;
  duration_sec: number;
  /** `minimum`: the amount is below its minimum order (or it is offline); `capacity`: not enough available; `price`: above --max-price. */
  reason: 'minimum' | 'capacity' | 'price';
}

export interface QuoteRequest {
  resource: Resource;
  amount: number;
  duration_sec: number;
  max_price_sun?: number | undefined;
}

/** The providers that list the resource for the duration but are not in `preview`, with why (best effort: [] on any failure). */
export async function unquoted(ctx: Context, request: QuoteRequest, preview: Preview): Promise<Unquoted[]> {
  try {
    const list = await (await ctx.clients.api('prices', { auth: false })).list({ maxRetries: 0, timeoutMs: 5_000 });
    return unquotedFrom(rankPrices(list, request.resource, request.duration_sec), request, preview);
  } catch {
    return [];
  }
}

export function unquotedFrom(rows: ReturnType<typeof rankPrices>, request: QuoteRequest, preview: Preview): Unquoted[] {
  const quoted = new Set([preview.best, ...preview.fallbacks].filter((o) => o != null).map((o) => o.provider));
  return rows
    .filter((r) => !quoted.has(r.provider))
    .map((r) => ({
      provider: r.provider,
      price_sun: r.price_sun,
      duration_sec: r.duration_sec,
      reason: request.max_price_sun !== undefined && r.price_sun > request.max_price_sun ? 'price' : r.available < request.amount ? 'capacity' : 'minimum',
    }));
}

const WHY: Record<Unquoted['reason'], (amount: string) => string> = {
  minimum: (amount) => `${amount} units is below its minimum order (or it is offline now)`,
  capacity: (amount) => `it has less than ${amount} units available`,
  price: () => 'above --max-price',
};

/** `Not quoted: tronsave (52 SUN/unit for 1h): 65,000 units is below its minimum order …` */
export function renderUnquoted(list: Unquoted[], amount: number, s: Styles): string {
  if (!list.length) return '';
  const units = groupDigits(String(amount));
  const lines = list.map((u) => `  ${u.provider} ${s.dim(`(${u.price_sun} SUN/unit for ${formatDuration(u.duration_sec)})`)}: ${WHY[u.reason](units)}`);
  const larger = list.some((u) => u.reason === 'minimum') ? `\n${s.dim('  A larger amount may get these prices.')}` : '';
  return `${s.yellow('Not quoted:')}\n${lines.join('\n')}${larger}\n`;
}

/** The hint for an order no provider can fill, from the unquoted providers (why each one did not quote). */
export function noProviderHint(list: Unquoted[], request: QuoteRequest): string | undefined {
  if (!list.length) return undefined;
  const units = groupDigits(String(request.amount));
  const names = (reason: Unquoted['reason']) => list.filter((u) => u.reason === reason).map((u) => u.provider);
  const parts: string[] = [];
  const below = names('minimum');
  if (below.length) parts.push(`${units} units is below the minimum order of ${below.join(', ')} (or they are offline)`);
  const short = names('capacity');
  if (short.length) parts.push(`${short.join(', ')} ${short.length === 1 ? 'has' : 'have'} less than ${units} available`);
  const dear = names('price');
  if (dear.length) parts.push(`${dear.join(', ')} ${dear.length === 1 ? 'is' : 'are'} above --max-price ${request.max_price_sun}`);
  const advice = below.length ? 'try a larger amount' : dear.length ? 'raise --max-price or place a LIMIT order (--type LIMIT)' : 'try a smaller amount';
  return `for ${formatDuration(request.duration_sec)}: ${parts.join('; ')}: ${advice}, another duration, or again later`;
}
