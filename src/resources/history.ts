import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import { HistoryList, HistoryQuery, HistorySummary } from '../schemas/history.js';
import { Resource } from './resource.js';

/** `client.history`: past fills and spending totals (GET /api/v1/history, /history/summary). */
export class History extends Resource {
  /** GET /api/v1/history: fills in the period (default 7D), newest first. */
  list(params: HistoryQuery = {}, options?: RequestOptions) {
    return this.call(() => {
      const query = validateRequest(HistoryQuery, params);
      return { method: 'GET', path: '/api/v1/history', query, schema: HistoryList, options };
    });
  }

  /** GET /api/v1/history/summary: totals over the whole account. */
  summary(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/history/summary', schema: HistorySummary, options }));
  }
}
