import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import {
  DepositInfo,
  PrepareDepositRequest,
  PreparedDeposit,
  SubmitDepositRequest,
  SubmitDepositResponse,
} from '../schemas/deposits.js';
import { Resource } from './resource.js';

export class Deposits extends Resource {
  /** GET /api/v1/deposit/info: address and memo for a manual TRX deposit (follows the live service). */
  info(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/deposit/info', schema: DepositInfo, options }));
  }

  /** POST /api/v1/deposit/prepare: the platform address and your memo (and its hex) for a transfer. */
  prepare(params: PrepareDepositRequest, options?: RequestOptions) {
    return this.call(() => {
      const body = validateRequest(PrepareDepositRequest, params);
      return { method: 'POST', path: '/api/v1/deposit/prepare', body, schema: PreparedDeposit, options };
    });
  }

  /** POST /api/v1/deposit/submit: a signed TRX transfer carrying the memo (public endpoint). */
  submit(params: SubmitDepositRequest, options?: RequestOptions) {
    return this.call(() => {
      const body = validateRequest(SubmitDepositRequest, params);
      return { method: 'POST', path: '/api/v1/deposit/submit', body, schema: SubmitDepositResponse, auth: false, options };
    });
  }
}
