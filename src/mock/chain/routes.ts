/**
 * The simulated TRON node's HTTP API (`/wallet/*`, `/walletsolidity/*`) on the mock's pipeline:
 * public, never rate limited, answered in the node's own format (an `{ Error }` body with 200
 * for a failed call, as java-tron does). TronWeb and the TRON x402 schemes point here.
 *
 * @module
 */
import type { RouteContext, RouteDef, RouteResult } from '../http/route.js';
import { NodeError, nodeCall } from './node.js';

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

/** The full node and the solidity node answer the same calls (the simulated chain has no unconfirmed blocks). */
function serve(ctx: RouteContext): RouteResult {
  try {
    return { status: 200, body: nodeCall(ctx.state.chain, ctx.params.method ?? '', nodeArgs(ctx)) ?? {} };
  } catch (error) {
    if (error instanceof NodeError) return { status: 200, body: { Error: error.message } };
    throw error;
  }
}

/**
 * Blocks between the head and the solidified head: java-tron solidifies a block once 70 % of the
 * 27 super representatives (19) have built on it.
 */
export const SOLIDIFICATION_DEPTH = 19;

/** `/walletsolidity/getnowblock`: the solidified head, SOLIDIFICATION_DEPTH blocks behind the head. */
function solidifiedHead(ctx: RouteContext): RouteResult {
  const chain = ctx.state.chain;
  return { status: 200, body: chain.block(Math.max(0, chain.height() - SOLIDIFICATION_DEPTH), false) ?? {} };
}

const node = { group: null, auth: 'public', raw: true } as const;

/** The node routes. */
export const nodeRoutes: RouteDef[] = [
  { ...node, method: 'POST', path: '/wallet/:method', handle: serve },
  { ...node, method: 'GET', path: '/wallet/:method', handle: serve },
  { ...node, method: 'POST', path: '/walletsolidity/getnowblock', handle: solidifiedHead },
  { ...node, method: 'GET', path: '/walletsolidity/getnowblock', handle: solidifiedHead },
  { ...node, method: 'POST', path: '/walletsolidity/:method', handle: serve },
];
