/**
 * Every failure of a tool becomes an MCP tool error (`isError: true`): the SDK's error code and
 * message as text (`INSUFFICIENT_BALANCE: …`), and the same as data under
 * `_meta["trx-rent/error"]` (code, message, status, details, request id). Nothing a tool
 * throws reaches the protocol layer, so no tool can bring the server down.
 * @module
 */
import { isTrxRentError } from '../errors/index.js';
import { redactText } from '../internal/redact.js';

export interface ToolErrorInfo {
  code: string;
  message: string;
  status?: number;
  details?: Record<string, unknown>;
  request_id?: string;
}

/** The tool result for `error`. */
export function toolError(error: unknown): { isError: true; content: Array<{ type: 'text'; text: string }>; _meta: Record<string, unknown> } {
  const info: ToolErrorInfo = isTrxRentError(error)
    ? {
        code: error.code,
        message: redactText(error.message),
        ...(error.status !== undefined ? { status: error.status } : {}),
        ...(error.details ? { details: plain(error.details) as Record<string, unknown> } : {}),
        ...(error.requestId ? { request_id: error.requestId } : {}),
      }
    : { code: 'INTERNAL_ERROR', message: `Unexpected error in the trx-rent MCP server: ${redactText(String((error as Error)?.message ?? error))}` };
  const lines = [`${info.code}: ${info.message}`];
  if (info.details) lines.push(`details: ${JSON.stringify(info.details)}`);
  if (info.request_id) lines.push(`request id: ${info.request_id}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], _meta: { 'trx-rent/error': info } };
}

/** JSON-safe copy (bigints as strings, no functions or cycles). */
function plain(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  } catch {
    return undefined;
  }
}
