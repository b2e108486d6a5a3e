/**
 * The pipeline's price stage for paid (x402) routes: a 402 challenge when no payment came, a
 * refusal when it does not verify, or a verified payment the pipeline settles after the handler.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HEADERS, decodeBase64Json } from '../../protocol/codec.js';
import type { Paywall } from '../x402/paywall.js';
import type { PriceRequest } from '../x402/paywall-terms.js';
import { type MockRequest, type MockResponse, type RouteContext, type RouteDef, jsonResult } from './route.js';

/** A settlement: the payment response headers, or a 402 when the payment could not settle. */
export type Settled = { headers: Record<string, string> } | { refused: MockResponse };

/** x402: a 402 challenge, a payment refusal, or a verified payment to settle after the handler. */
export async function payStage(paywall: Paywall, route: RouteDef, ctx: RouteContext): Promise<MockResponse | { settle: () => Settled }> {
  const request = ctx.request;
  const target = `${request.path}${request.query ? `?${request.query}` : ''}`;
  const override = versionOverride(request);
  const req: PriceRequest = {
    method: request.method,
    url: `${request.origin}${target}`,
    key: bytesToHex(sha256(new TextEncoder().encode(`${request.method.toLowerCase()} ${target} ${request.method === 'GET' ? '' : request.body}`))),
    priceMicroUsd: route.price!(ctx),
    description: route.description ?? route.path,
    ...(override ? { version: override } : {}),
  };
  const paying = request.headers.has(HEADERS.PAYMENT_SIGNATURE) || request.headers.has(HEADERS.X_PAYMENT);
  if (!paying) {
    const challenge = paywall.challenge(req);
    return jsonResult(402, JSON.stringify(challenge.body), challenge.headers);
  }
  const verification = await paywall.verify(request.headers, req);
  const version = payloadVersion(request) ?? req.version ?? paywall.options.version;
  if (!verification.ok) {
    const challenge = paywall.challenge({ ...req, version }, verification.reason);
    return jsonResult(402, JSON.stringify(challenge.body), { ...challenge.headers, ...paywall.failureHeader(verification, version) });
  }
  ctx.payer = verification.payer;
  return {
    settle() {
      const settled = verification.settle();
      if ('ok' in settled && settled.ok === false) {
        const challenge = paywall.challenge({ ...req, version }, settled.reason);
        return { refused: jsonResult(402, JSON.stringify(challenge.body), { ...challenge.headers, ...paywall.failureHeader(settled, version) }) };
      }
      const ok = settled as { header: string; headerName: string };
      return { headers: { [ok.headerName]: ok.header, 'access-control-expose-headers': 'PAYMENT-RESPONSE, X-PAYMENT-RESPONSE' } };
    },
  };
}

function versionOverride(request: MockRequest): 1 | 2 | undefined {
  const v = request.headers.get('x-mock-x402-version');
  return v === '1' ? 1 : v === '2' ? 2 : undefined;
}

function payloadVersion(request: MockRequest): 1 | 2 | undefined {
  const raw = request.headers.get(HEADERS.PAYMENT_SIGNATURE) ?? request.headers.get(HEADERS.X_PAYMENT);
  if (!raw) return undefined;
  try {
    const v = (decodeBase64Json(raw) as { x402Version?: unknown }).x402Version;
    return v === 1 ? 1 : v === 2 ? 2 : undefined;
  } catch {
    return undefined;
  }
}
