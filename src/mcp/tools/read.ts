/**
 * The read-only tools, generated from the endpoint table: one per unpaid GET of the account API
 * whose entry names an MCP tool. Name, title and units come from the entry's `mcp` binding, the
 * description from its summary, the input from its path and query schemas (their field
 * descriptions included), the output from its response schema (a list under the binding's
 * `listKey`: MCP's structured content is an object). Each runs the entry's request through the
 * SDK's request core, so it gets the SDK's retries, parsing and typed errors.
 *
 * Tools that spend or change the account (orders, withdrawals, webhooks, every paid x402 call)
 * are not generated: they are written by hand under the spending rules (`./orders.ts`, …).
 */
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { ACCOUNT_ENDPOINTS, pathParams, type EndpointDef, type McpBinding } from '../../api/endpoints.js';
import { requestFor } from '../../resources/resource.js';
import { NoInput, type Tool, tool } from '../tool.js';

type ReadEntry = EndpointDef & { id: string; mcp: McpBinding & { title: string } };

/** Whether the table generates a read tool for this entry. */
export function isGeneratedReadTool(entry: EndpointDef): entry is ReadEntry {
  return entry.api === 'account' && entry.method === 'GET' && !entry.price && entry.mcp !== undefined && entry.mcp.title !== undefined;
}

/** The tool's input: the path parameters and the query in one strict object. */
function inputOf(entry: EndpointDef): ZodMiniType {
  const parts = [entry.params, entry.query].filter((s): s is ZodMiniType => s !== undefined);
  if (parts.length === 0) return NoInput;
  if (parts.length === 1) return parts[0]!;
  const [params, query] = parts;
  if (!(params instanceof z.ZodObject) || !(query instanceof z.ZodObject)) throw new Error(`MCP: cannot merge the params and query of ${entry.path}`);
  return z.strictObject({ ...params.shape, ...query.shape });
}

/** The read tool of one table entry. */
export function readTool(entry: ReadEntry): Tool {
  const { mcp } = entry;
  const names = new Set(pathParams(entry.path));
  const output = mcp.listKey ? z.object({ [mcp.listKey]: entry.response }) : entry.response;
  return tool({
    name: mcp.tool,
    title: mcp.title,
    description: [`${entry.summary}.`, mcp.units, entry.auth === 'public' ? 'Public; spends nothing.' : 'Read-only: spends nothing.'].filter(Boolean).join(' '),
    access: 'read',
    input: inputOf(entry),
    output,
    async run(args, { session, signal }) {
      const all = (args ?? {}) as Record<string, unknown>;
      const params = Object.fromEntries(Object.entries(all).filter(([k]) => names.has(k)));
      const query = Object.fromEntries(Object.entries(all).filter(([k, v]) => !names.has(k) && v !== undefined));
      // The resources' own request builder: path, checks (fast, then zod) and auth from the entry.
      const { data } = await session.api.http.request(requestFor(entry, { params, query }, { signal }));
      return mcp.listKey ? { [mcp.listKey]: data } : data;
    },
  });
}

/** Every generated read tool, in table order. */
export const READ_TOOLS: readonly Tool[] = Object.values(ACCOUNT_ENDPOINTS as Record<string, EndpointDef & { id: string }>)
  .filter(isGeneratedReadTool)
  .map(readTool);
