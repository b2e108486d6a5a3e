/**
 * The simulated TRON node's HTTP API (`/wallet/*`, `/walletsolidity/*`) on the mock's pipeline:
 * public, never rate limited, answered in the node's own format (an `{ Error }` body with 200
 * for a failed call, as java-tron does), GET and POST on both, as java-tron's servlets take
 * them. TronWeb and the TRON x402 schemes point here.
 *
 * @module
 */
import type { RouteContext, RouteDef, RouteResult } from './http/route.js';
import { NodeError, nodeCall } from './chain/node.js';

/** Body fields, then query parameters the body does not set (`visible=true` style). */
function nodeArgs(ctx: RouteContext): Record<string, unknown> {
  let body: Record<string, unknown> = {};
  const text = ctx.request.body;
  if (text.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = { ...(parsed as Record<string, unknown>) };
    } catch {
      // java-tron reads a malformed body as no arguments; the method then reports what is missing
    }
  }
  for (const [k, v] of Object.entries(ctx.query)) if (!(k in body)) body[k] = v === 'true' ? true : v === 'false' ? false : v;
  return body;
}

/** The full node answers on the head block's state, the solidity node on the solidified block's (SOLIDIFIED_LAG_BLOCKS behind). */
function serveAs(solidity: boolean) {
  return (ctx: RouteContext): RouteResult => {
    try {
      return { status: 200, body: nodeCall(ctx.state.chain, ctx.params.method ?? '', nodeArgs(ctx), { solidity }) ?? {} };
    } catch (error) {
      if (error instanceof NodeError) return { status: 200, body: { Error: error.message } };
      throw error;
    }
  };
}
const serve = serveAs(false);
const serveSolidity = serveAs(true);

const node = { group: null, auth: 'public', raw: true } as const;

/** The node routes. */
export const nodeRoutes: RouteDef[] = [
  { ...node, method: 'POST', path: '/wallet/:method', handle: serve },
  { ...node, method: 'GET', path: '/wallet/:method', handle: serve },
  { ...node, method: 'POST', path: '/walletsolidity/:method', handle: serveSolidity },
  { ...node, method: 'GET', path: '/walletsolidity/:method', handle: serveSolidity },
];
