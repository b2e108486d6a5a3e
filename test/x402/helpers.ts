import { x402Client } from '@x402/core/client';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import { fetchJson } from '../../src/http/response.js';
import { Transport } from '../../src/http/transport.js';
import type { Payer, PaymentContext } from '../../src/x402/payers.js';
import { normaliseNetwork } from '../../src/protocol/networks.js';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createHandlers } from '../../src/mock/msw.js';
import { createMockState, type MockState } from '../../src/mock/state/index.js';
import { getPaidMock, type PaidMockOptions } from '../../src/mock/x402/index.js';

/** Fixed test keys (never real funds). */
export const KEYS = {
  evm: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
  tron: 'b6f1c8bb3e3fa2fc4a57e2a5f5e1d7c1a7e0c4d7b4f2e6a9d8c3b1a0f9e8d7c6',
  tron2: '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63',
} as const;

export const BASE_URL = 'http://127.0.0.1:4402';
export const HOOK_URL = 'http://127.0.0.1:4403/hook';

export interface Received {
  headers: Headers;
  body: string;
}

/** The whole mock (account API + paid side) in-process with msw, on a manual clock. */
export function startMock(options: PaidMockOptions = {}) {
  const state: MockState = createMockState({ clock: 'manual', seed: 11 });
  const paid = getPaidMock(state, options);
  const hooks: Received[] = [];
  const server = setupServer(
    http.post(HOOK_URL, async ({ request }) => {
      hooks.push({ headers: request.headers, body: await request.text() });
      // No body: the mock's delivery awaits response.body.cancel(), which never settles for an
      // msw-mocked body in-process (reported to the mock engineer).
      return new HttpResponse(null, { status: 204 });
    }),
    ...createHandlers(state, { rateLimits: false }),
  );
  server.listen({ onUnhandledRequest: 'error' });
  return {
    state,
    paid,
    server,
    hooks,
    baseUrl: BASE_URL,
    relayer: `${BASE_URL}/__mock/gasfree`,
    close() {
      server.close();
      state.dispose();
    },
  };
}

export const noSpendContext: PaymentContext = {
  authorizeFee: () => undefined,
  requestJson: (url, init) => fetchJson(new Transport(), url, { ...init, timeoutMs: 10_000 }),
  refuse: (message) => new Error(message),
};

/**
 * Wire-level payment for tests that tamper with it: fetch the 402, pick the offer of `scheme` on
 * `network`, optionally change the offer before signing, and sign with `payer` through
 * @x402/core (the same path X402Client takes). Returns the decoded payload and a `send`.
 */
export async function preparePayment(
  url: string,
  init: RequestInit,
  payer: Payer,
  pick: { scheme: string; network: string; asset?: string },
  changeOffer?: (offer: Record<string, unknown>) => void,
) {
  const challengeResponse = await fetch(url, init);
  if (challengeResponse.status !== 402) throw new Error(`expected 402, got ${challengeResponse.status}`);
  const header = challengeResponse.headers.get('PAYMENT-REQUIRED');
  const challenge = (header ? decodeBase64Json(header) : await challengeResponse.json()) as {
    x402Version: number;
    accepts: Array<Record<string, unknown>>;
    [k: string]: unknown;
  };
  const offer = challenge.accepts.find(
    (a) => a.scheme === pick.scheme && normaliseNetwork(String(a.network)) === normaliseNetwork(pick.network) && (!pick.asset || a.asset === pick.asset),
  );
  if (!offer) throw new Error('no such offer');
  const signedOffer = structuredClone(offer);
  changeOffer?.(signedOffer);
  const core = new x402Client();
  core.setSpendControls(false);
  await payer.register(core as never, noSpendContext);
  const payload = (await core.createPaymentPayload({ ...(challenge as Record<string, unknown>), accepts: [signedOffer] } as never)) as Record<string, unknown>;
  const headerName = challenge.x402Version === 1 ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE';
  return {
    challenge,
    offer,
    payload,
    send: (p: unknown = payload) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), [headerName]: encodeBase64Json(p) } }),
  };
}

/** The error reason of a rejected payment: the settlement header's errorReason. */
export function rejection(response: Response): string | undefined {
  const header = response.headers.get('PAYMENT-RESPONSE') ?? response.headers.get('X-PAYMENT-RESPONSE');
  return header ? (decodeBase64Json(header) as { errorReason?: string }).errorReason : undefined;
}
