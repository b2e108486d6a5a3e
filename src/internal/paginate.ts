/**
 * The one pagination walker: every page of an offset-paginated list, driven by the endpoint
 * table's pagination facts (`entry.pagination`: where the items, the total and each item's id
 * are, which query parameter carries the offset). `client.orders.list()`'s `for await` uses it;
 * so can the CLI's `api --paginate` or any other caller that can fetch one page by offset.
 *
 * The walk trusts no server to end it: it stops on an empty page, on a page that brings no item
 * it has not already yielded (an item is never yielded twice), or on an offset past `total`; and
 * after `maxPages` pages it fails with PaginationLimitError rather than walk forever.
 * @module
 */
import { PaginationLimitError } from '../errors/index.js';
import type { OffsetPagination } from '../api/types.js';
import { canonicalJson } from './json.js';

/** How to walk: the table's facts, where to start, how many pages at most. */
export interface WalkOptions<P> {
  /** The entry's pagination facts. */
  facts: Pick<OffsetPagination, 'items' | 'total' | 'itemId'>;
  /** Offset of the first page. @default 0 */
  startOffset?: number;
  /** Most pages fetched; past it the walk throws PaginationLimitError. @default Infinity */
  maxPages?: number;
  /** The first page, when the caller has its own way to get it; else `fetchPage(startOffset)`. Called on the first step. */
  first?: () => P | Promise<P>;
  /** Fetch the page at `offset`. */
  fetchPage(offset: number): Promise<P>;
  /** The page's body, when a page is more than its body (e.g. `{ data, response }`). @default the page itself */
  body?(page: P): unknown;
}

/** The items and total of one page body, or undefined when the body is not a page. */
export function pageOf(facts: Pick<OffsetPagination, 'items' | 'total'>, body: unknown): { items: unknown[]; total: number | undefined } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const items = (body as Record<string, unknown>)[facts.items];
  if (!Array.isArray(items)) return undefined;
  const total = Number((body as Record<string, unknown>)[facts.total]);
  return { items, total: Number.isFinite(total) ? total : undefined };
}

/** Every item from `startOffset` on, one page request at a time (see the module notes for when it stops). */
export async function* walkPages<P, T = unknown>(options: WalkOptions<P>): AsyncGenerator<T, void, undefined> {
  const { facts, fetchPage } = options;
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  const body = options.body ?? ((page: P) => page);
  let offset = options.startOffset ?? 0;
  let page = await (options.first ? options.first() : fetchPage(offset));
  const seen = new Set<string>();
  for (let pages = 1; ; pages++) {
    const found = pageOf(facts, body(page));
    if (!found) return;
    let fresh = 0;
    for (const item of found.items) {
      const key = itemKey(item, facts.itemId);
      if (seen.has(key)) continue;
      seen.add(key);
      fresh++;
      yield item as T;
    }
    offset += found.items.length;
    if (fresh === 0 || !(found.total === undefined || offset < found.total)) return;
    if (pages >= maxPages) throw new PaginationLimitError(maxPages);
    page = await fetchPage(offset);
  }
}

function itemKey(item: unknown, idField: string): string {
  const id = item && typeof item === 'object' ? (item as Record<string, unknown>)[idField] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? `id:${id}` : `json:${canonicalJson(item)}`;
}
