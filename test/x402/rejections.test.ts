import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { labelAddress } from '../../src/mock/x402/index.js';
import { X402Client, PaymentFailedError, evmPayer, tronPayer, type Payer } from '../../src/x402/index.js';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import { normaliseNetwork } from '../../src/protocol/networks.js';
import { BASE_URL, KEYS, preparePayment, rejection, startMock } from './helpers.js';

/**
 * The mock's offline facilitator rejects, with a reason, each of: a tampered signature, a payment
 * to the wrong payTo, an expired authorization and a reused nonce (paymentId, GasFree nonce, txID)
 * — for EVM exact and each TRON scheme. A fresh mock per test: some tests move its clock.
 */

let mock: ReturnType<typeof startMock>;
beforeEach(() => {
  mock?.close();
  mock = startMock();
});
afterAll(() => mock.close());

const URL_ = `${BASE_URL}/x402/tron/prices`;
const GET: RequestInit = { method: 'GET', headers: { accept: 'application/json' } };
const ATTACKER_TRON = labelAddress('attacker');
const ATTACKER_EVM = '0x000000000000000000000000000000000000dEaD';

interface Case {
  name: string;
  payer: () => Payer;
  pick: { scheme: string; network: string };
  attacker: string;
  reasons: { signature: string; payTo: string; expired: string; reused: string };
  /** How far to move the mock clock so the authorization has expired. */
  expireAfterMs: number;
  tamper(payload: Record<string, unknown>): void;
}

function flipHex(sig: string): string {
  const i = sig.length - 10;
  return sig.slice(0, i) + (sig[i] === '0' ? '1' : '0') + sig.slice(i + 1);
}

const tron = (scheme: string) => () => tronPayer({ privateKey: KEYS.tron, schemes: [scheme as never], gasfreeRelayer: mock.relayer, fullNode: BASE_URL });

const CASES: Case[] = [
  {
    name: 'EVM exact (EIP-3009)',
    payer: () => evmPayer({ privateKey: KEYS.evm }),
    pick: { scheme: 'exact', network: 'eip155:8453' },
    attacker: ATTACKER_EVM,
    reasons: {
      signature: 'invalid_exact_evm_payload_signature',
      payTo: 'invalid_exact_evm_payload_recipient_mismatch',
      expired: 'invalid_exact_evm_payload_authorization_valid_before',
      reused: 'duplicate_settlement',
    },
    expireAfterMs: 301_000,
    tamper: (p) => {
      const inner = p.payload as { signature: string };
      inner.signature = flipHex(inner.signature);
    },
  },
  {
    name: 'TRON exact_permit',
    payer: tron('exact_permit'),
    pick: { scheme: 'exact_permit', network: 'tron:728126428' },
    attacker: ATTACKER_TRON,
    reasons: { signature: 'invalid_exact_permit_signature', payTo: 'permit_payto_mismatch', expired: 'permit_expired', reused: 'permit_payment_id_used' },
    expireAfterMs: 3_601_000,
    tamper: (p) => {
      const inner = p.payload as { signature: string };
      inner.signature = flipHex(inner.signature);
    },
  },
  {
    name: 'TRON exact_gasfree',
    payer: tron('exact_gasfree'),
    pick: { scheme: 'exact_gasfree', network: 'tron:728126428' },
    attacker: ATTACKER_TRON,
    reasons: { signature: 'invalid_gasfree_signature', payTo: 'gasfree_payto_mismatch', expired: 'gasfree_expired', reused: 'gasfree_nonce_used' },
    expireAfterMs: 700_000,
    tamper: (p) => {
      const inner = p.payload as { signature: string };
      inner.signature = flipHex(inner.signature);
    },
  },
  {
    name: 'TRON exact (signed TRC-20 transfer)',
    payer: tron('exact'),
    pick: { scheme: 'exact', network: 'tron:728126428' },
    attacker: ATTACKER_TRON,
    reasons: {
      signature: 'invalid_exact_tron_payload_signature',
      payTo: 'invalid_exact_tron_payload_recipient_mismatch',
      expired: 'invalid_exact_tron_payload_expired',
      reused: 'duplicate_settlement',
    },
    expireAfterMs: 61_000,
    tamper: (p) => {
      const inner = p.payload as { signedTransaction: { signature: string[] } };
      inner.signedTransaction.signature = [flipHex(inner.signedTransaction.signature[0]!)];
    },
  },
];

for (const c of CASES) {
  describe(c.name, () => {
    test('a valid payment is accepted (control)', async () => {
      const prepared = await preparePayment(URL_, GET, c.payer(), c.pick);
      const ok = await prepared.send();
      expect(ok.status).toBe(200);
      const settlement = decodeBase64Json(ok.headers.get('PAYMENT-RESPONSE')!) as { success: boolean };
      expect(settlement.success).toBe(true);
    });

    test('a tampered signature is rejected with a reason', async () => {
      const prepared = await preparePayment(URL_, GET, c.payer(), c.pick);
      const tampered = structuredClone(prepared.payload);
      c.tamper(tampered);
      const res = await prepared.send(tampered);
      expect(res.status).toBe(402);
      expect(rejection(res)).toBe(c.reasons.signature);
      // every settlement result names its network, failures too
      const named = (decodeBase64Json(res.headers.get('PAYMENT-RESPONSE')!) as { network: string }).network;
      expect(named).not.toBe('');
      expect(normaliseNetwork(named)).toBe(normaliseNetwork(c.pick.network));
      // a fresh challenge comes with the rejection, its error naming the reason
      expect((decodeBase64Json(res.headers.get('PAYMENT-REQUIRED')!) as { error: string }).error).toBe(c.reasons.signature);
      expect(mock.paid.paywall.payments).toHaveLength(0);
    });

    test('a payment signed to the wrong payTo is rejected with a reason', async () => {
      // The signed content pays the attacker; the echoed offer is left as the server sent it.
      const prepared = await preparePayment(URL_, GET, c.payer(), c.pick, (offer) => {
        offer.payTo = c.attacker;
      });
      (prepared.payload as { accepted: Record<string, unknown> }).accepted = prepared.offer;
      const res = await prepared.send();
      expect(res.status).toBe(402);
      expect(rejection(res)).toBe(c.reasons.payTo);
      // and echoing the attacker as payTo is refused too
      const echoed = await preparePayment(URL_, GET, c.payer(), c.pick, (offer) => {
        offer.payTo = c.attacker;
      });
      const res2 = await echoed.send();
      expect(res2.status).toBe(402);
      expect(rejection(res2)).toBe(c.reasons.payTo);
    });

    test('an expired authorization is rejected with a reason', async () => {
      const prepared = await preparePayment(URL_, GET, c.payer(), c.pick);
      await mock.state.advance(c.expireAfterMs);
      const res = await prepared.send();
      expect(res.status).toBe(402);
      expect(rejection(res)).toBe(c.reasons.expired);
    });

    if (c.pick.scheme === 'exact_permit' || c.pick.scheme === 'exact_gasfree') {
      test('a TIP-712 signature without the 0x prefix (as the maintained TRON client sends it) is accepted', async () => {
        const prepared = await preparePayment(URL_, GET, c.payer(), c.pick);
        const bare = structuredClone(prepared.payload);
        const inner = bare.payload as { signature: string };
        expect(inner.signature.startsWith('0x')).toBe(true);
        inner.signature = inner.signature.slice(2);
        const res = await prepared.send(bare);
        expect(res.status, rejection(res)).toBe(200);
      });
    }

    test('a reused nonce is rejected with a reason', async () => {
      const prepared = await preparePayment(URL_, GET, c.payer(), c.pick);
      expect((await prepared.send()).status).toBe(200);
      const again = await prepared.send();
      expect(again.status).toBe(402);
      expect(rejection(again)).toBe(c.reasons.reused);
      expect(mock.paid.paywall.payments).toHaveLength(1);
    });
  });
}

describe('the client on a rejected payment', () => {
  test('a second 402 after paying is a PaymentFailedError with the server’s reason, after exactly two requests; the sent payment stays counted', async () => {
    let requests = 0;
    const corrupting: typeof fetch = async (input, init) => {
      requests++;
      const request = new Request(input, init);
      const header = request.headers.get('PAYMENT-SIGNATURE');
      if (header) {
        const payload = decodeBase64Json(header) as { payload: { signature: string } };
        payload.payload.signature = flipHex(payload.payload.signature);
        request.headers.set('PAYMENT-SIGNATURE', encodeBase64Json(payload));
      }
      return fetch(request);
    };
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], fetch: corrupting, budget: '1' });
    const error = await client.prices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentFailedError);
    expect((error as PaymentFailedError).reason).toBe('invalid_exact_evm_payload_signature');
    expect(requests).toBe(2);
    // A signed payment that went out counts as spent until proven otherwise: this client cannot
    // know that nobody settles it later.
    expect(client.spent).toBe('0.01');
    expect(client.remainingBudget).toBe('0.99');
  });

  test('permit: the server’s issued paymentId must be used; an unknown one is rejected', async () => {
    const prepared = await preparePayment(URL_, GET, tron('exact_permit')(), CASES[1]!.pick);
    const forged = structuredClone(prepared.payload) as { payload: { paymentPermit: { meta: { paymentId: string } } } };
    forged.payload.paymentPermit.meta.paymentId = `0x${'ab'.repeat(16)}`;
    const res = await prepared.send(forged);
    expect(rejection(res)).toBe('permit_unknown_payment_id');
    expect(privateKeyToTronAddress(KEYS.tron)).toBe((prepared.payload as { payload: { paymentPermit: { buyer: string } } }).payload.paymentPermit.buyer);
  });

  test('a malformed payment header is a 402 with the reason (the spec: a call without valid payment answers 402)', async () => {
    const res = await fetch(URL_, { headers: { 'PAYMENT-SIGNATURE': 'not base64 json!' } });
    expect(res.status).toBe(402);
    expect(rejection(res)).toBe('invalid_payload');
    const body = (await res.json()) as { x402Version: number; error: string; accepts: unknown[] };
    expect(body).toMatchObject({ x402Version: 2, error: 'invalid_payload' });
    expect(body.accepts.length).toBeGreaterThan(0);
  });
});
