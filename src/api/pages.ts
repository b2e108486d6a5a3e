/**
 * The offset page walk, driven by an entry's `pagination` facts (where the items, the total
 * and the offset are). It trusts no server to end it: it stops on an empty page, a page with
 * nothing new (by `itemId`), an offset past `total`, or after `maxPages`.
 *
 * Used by the CLI's `api --paginate`; meant to become the one walker the SDK's lists share
 * (issue 21, item 6).
 * @module
 */
import type { OffsetPagination } from './types.js';

/** Thrown when a walk reaches its page limit before the list ended. */
export class PageLimitError extends Error {
  constructor(readonly pages: number) {
    super(`stopped after ${pages} pages`);
    this.name = 'PageLimitError';
  }
}

/** One page as the walk sees it: the new items (never seen on an earlier page) and the raw answer. */
export interface WalkedPage<R> {
  items: unknown[];
  response: R;
}

/**
 * Walk the pages of an offset-paginated list. `fetchPage(query)` asks for one page with the
 * pagination's offset parameter set; it returns the page body (`data`) and anything else the
 * caller wants back (`response`).
 */
export async function* walkOffsetPages<R>(
  pagination: OffsetPagination,
  fetchPage: (query: Record<string, number>) => Promise<{ data: unknown; response: R }>,
  options: { startOffset?: number; maxPages: number },
): AsyncGenerator<WalkedPage<R>> {
  const seen = new Set<unknown>();
  let offset = options.startOffset ?? 0;
  for (let pages = 1; ; pages++) {
    const { data, response } = await fetchPage({ [pagination.offset]: offset });
    const page = (data ?? {}) as Record<string, unknown>;
    const items = page[pagination.items];
    if (!Array.isArray(items)) throw new TypeError(`the page has no ${pagination.items} array`);
    const fresh = items.filter((item) => {
      const id = (item as Record<string, unknown> | null)?.[pagination.itemId];
      if (id === undefined || id === null) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    yield { items: fresh, response };
    offset += items.length;
    const total = Number(page[pagination.total] ?? Number.NaN); // the lenient schemas accept numeric strings
    if (fresh.length === 0 || (Number.isFinite(total) && offset >= total)) return;
    if (pages >= options.maxPages) throw new PageLimitError(pages);
  }
}
