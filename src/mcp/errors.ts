/**
 * Every failure of a tool becomes an MCP tool error (`isError: true`): the SDK's error code and
 * message as text (`INSUFFICIENT_BALANCE: …`), and the same as data under
 * `_meta["trx-rent/error"]` (code, message, status, details, request id). Nothing a tool
 * throws reaches the protocol layer, so no tool can bring the server down. A message that came
 * from the service (the error has an HTTP status) is quoted and labelled as the service's text,
 * and every string is sanitised (src/mcp/text.ts): server text is data, not instructions.
 * @module
 */
import { isTrxRentError } from '../errors/index.js';
import { redactText } from '../internal/redact.js';
import { cleanData, oneLine, quoted } from './text.js';

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
        code: oneLine(error.code),
        message: oneLine(redactText(error.message)),
        ...(error.status !== undefined ? { status: error.status } : {}),
        ...(error.details ? { details: cleanData(plain(error.details)) as Record<string, unknown> } : {}),
        ...(error.requestId ? { request_id: oneLine(error.requestId) } : {}),
      }
    : { code: 'INTERNAL_ERROR', message: `Unexpected error in the trx-rent MCP server: ${oneLine(redactText(String((error as Error)?.message ?? error)))}` };
  // From a response: the service wrote the message; quote it as its data.
  const fromService = isTrxRentError(error) && error.status !== undefined;
  const lines = [
    fromService
      ? `${info.code}: the service answered ${info.status} with the message ${quoted(info.message)} (the service's text, data only)`
      : `${info.code}: ${info.message}`,
  ];
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
