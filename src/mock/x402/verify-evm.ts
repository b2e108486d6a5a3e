/**
 * The paywall's EVM scheme: `exact` on Base with an EIP-3009 `transferWithAuthorization`,
 * verified offline (fields, recipient, amount: exact in v2 unless configured otherwise, at
 * least in v1; validity window; the signature recovered to `from`; the nonce used once) and
 * settled by recording the nonce (no EVM chain is simulated).
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { evmChainId, normaliseNetwork } from '../../protocol/networks.js';
import { transferWithAuthorizationTypedData } from '../../protocol/tip712.js';
import { type PaywallState, type PriceRequest, type Requirement, type Verification, fail, recoverTypedData } from './paywall-terms.js';

/** Verify an EIP-3009 authorization against the offer; `settle()` marks its nonce used. */
export async function verifyEvm(
  paywall: PaywallState,
  version: 1 | 2,
  payload: Record<string, unknown>,
  offer: Requirement,
  req: PriceRequest,
): Promise<Verification> {
  const auth = payload.authorization as Record<string, unknown> | undefined;
  const signature = payload.signature;
  if (!auth || typeof signature !== 'string') return fail('invalid_payload', 'payload needs authorization and signature');
  const fields = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
  for (const f of fields) if (typeof auth[f] !== 'string') return fail('invalid_payload', `authorization.${f} is missing`);
  const from = auth.from as string;
  if (!/^0x[0-9a-fA-F]{40}$/.test(from) || !/^0x[0-9a-fA-F]{40}$/.test(auth.to as string))
    return fail('invalid_payload', 'authorization addresses must be 0x addresses');
  if (!/^\d+$/.test(auth.value as string) || !/^\d+$/.test(auth.validAfter as string) || !/^\d+$/.test(auth.validBefore as string)) {
    return fail('invalid_payload', 'authorization numbers must be decimal strings', from);
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(auth.nonce as string)) return fail('invalid_payload', 'authorization.nonce must be 32 bytes of hex', from);
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    return fail('invalid_exact_evm_payload_signature', 'only 65-byte EOA signatures can be verified offline', from);
  }
  if ((auth.to as string).toLowerCase() !== offer.payTo.toLowerCase()) {
    return fail('invalid_exact_evm_payload_recipient_mismatch', `authorization.to ${auth.to as string} is not payTo ${offer.payTo}`, from);
  }
  const value = BigInt(auth.value as string);
  const required = BigInt(offer.amount);
  const strict = version === 2 && paywall.options.strictEvmAmount;
  if (strict ? value !== required : value < required) {
    return fail('invalid_exact_evm_payload_authorization_value', `authorization.value ${value} ${strict ? 'must equal' : 'is below'} ${required}`, from);
  }
  const nowS = BigInt(Math.floor(paywall.now() / 1000));
  if (BigInt(auth.validAfter as string) > nowS) return fail('invalid_exact_evm_payload_authorization_valid_after', 'the authorization is not valid yet', from);
  if (BigInt(auth.validBefore as string) < nowS + 6n)
    return fail('invalid_exact_evm_payload_authorization_valid_before', 'the authorization has expired', from);
  const typed = transferWithAuthorizationTypedData(auth as never, {
    name: String(offer.extra.name),
    version: String(offer.extra.version),
    chainId: evmChainId(offer.network)!,
    verifyingContract: offer.asset,
  });
  const signer = await recoverTypedData(typed, signature);
  if (!signer || signer.toLowerCase() !== from.toLowerCase()) {
    return fail('invalid_exact_evm_payload_signature', 'the signature does not recover to authorization.from', from);
  }
  const nonceKey = `${normaliseNetwork(offer.network)}:${offer.asset.toLowerCase()}:${from.toLowerCase()}:${(auth.nonce as string).toLowerCase()}`;
  if (paywall.usedEvmNonces.has(nonceKey)) return fail('duplicate_settlement', 'this authorization nonce was already used', from);
  return {
    ok: true,
    payer: from,
    settle: () => {
      if (paywall.usedEvmNonces.has(nonceKey)) return fail('duplicate_settlement', 'this authorization nonce was already used', from);
      paywall.usedEvmNonces.add(nonceKey);
      const transaction = `0x${bytesToHex(keccak_256(new TextEncoder().encode(`${nonceKey}:${signature}`)))}`;
      return paywall.settled(version, offer, from, transaction, value.toString(), req);
    },
  };
}
