import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { HistoryQuery } from '../schemas/history.js';
import { Resource } from './resource.js';

/** `client.history`: past fills and spending totals (table entries `listHistory`, `getHistorySummary`). */
export class History extends Resource {
  /** Fills in the period (default 7D), newest first. */
  list(params: HistoryQuery = {}, options?: RequestOptions) {
    return this.call(E.listHistory, { query: params }, options);
  }

  /** Totals over the whole account. */
  summary(options?: RequestOptions) {
    return this.call(E.getHistorySummary, {}, options);
  }
}
