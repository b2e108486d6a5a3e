/**
 * The paywall's TRON schemes, verified on the simulated chain: `exact_permit` (a TIP-712
 * PaymentPermit against the context issued with the challenge), `exact_gasfree` (a TIP-712
 * GasFree transfer from the user's GasFree address) and `exact` (a signed, not yet broadcast,
 * TRC-20 transfer that the settlement broadcasts). Reasons follow the reference facilitators
 * (`permit_*`, GasFree's `gasfree_*`, `invalid_exact_tron_payload_*`).
 * @module
 */
import { verifySignedTransaction } from '../../protocol/tron-transaction.js';
import { isTronAddress, tronAddressToEvmHex } from '../../utils/address.js';
import { GASFREE_CONTROLLERS, PAYMENT_PERMIT_CONTRACTS, TRON_CHAIN_IDS, TRON_ZERO_ADDRESS, tronNetworkName } from '../../protocol/networks.js';
import { type GasFreeMessageJson, type PaymentPermitJson, type TypedDataDefinition, gasFreeTypedData, paymentPermitTypedData } from '../../protocol/tip712.js';
import { recoverSigner } from '../chain/signatures.js';
import type { ChainToken } from '../chain/types.js';
import {
  MOCK_PAY_TO,
  type PaywallState,
  type PriceRequest,
  type Requirement,
  type Verification,
  fail,
  gasFreeAddressOf,
  recoverTypedData,
} from './paywall-terms.js';

// ---- TRON exact_permit ----

/** Verify a PaymentPermit (TIP-712) against the offer and the permit context issued with the challenge; `settle()` uses the paymentId and moves the tokens. */
export async function verifyPermit(paywall: PaywallState, payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
  const permit = payload.paymentPermit as PaymentPermitJson | undefined;
  const signature = payload.signature;
  if (!permit || typeof signature !== 'string' || !permit.meta || !permit.payment || !permit.fee) {
    return fail('invalid_payload', 'payload needs paymentPermit and signature');
  }
  const buyer = permit.buyer;
  for (const [name, value] of [
    ['buyer', buyer],
    ['caller', permit.caller],
    ['payment.payTo', permit.payment.payTo],
    ['payment.payToken', permit.payment.payToken],
    ['fee.feeTo', permit.fee.feeTo],
  ] as const) {
    if (typeof value !== 'string' || !isTronAddress(value)) return fail('invalid_payload', `paymentPermit.${name} is not a TRON address`);
  }
  if (!/^\d+$/.test(String(permit.payment.payAmount)) || !/^\d+$/.test(String(permit.fee.feeAmount))) {
    return fail('invalid_payload', 'paymentPermit amounts must be integer strings', buyer);
  }
  const issued = paywall.issuedPermits.get(String(permit.meta.paymentId).toLowerCase());
  if (!issued) return fail('permit_unknown_payment_id', 'meta.paymentId was not issued by this server', buyer);
  if (issued.used) return fail('permit_payment_id_used', 'meta.paymentId was already used', buyer);
  if (String(permit.meta.nonce) !== issued.nonce) return fail('permit_nonce_mismatch', 'meta.nonce is not the one issued with this paymentId', buyer);
  if (permit.meta.kind !== 'PAYMENT_ONLY') return fail('invalid_payload', 'meta.kind must be PAYMENT_ONLY', buyer);
  if (permit.payment.payTo !== offer.payTo) return fail('permit_payto_mismatch', `payment.payTo ${permit.payment.payTo} is not payTo ${offer.payTo}`, buyer);
  if (permit.payment.payToken !== offer.asset) return fail('permit_token_mismatch', `payment.payToken is not ${offer.asset}`, buyer);
  if (BigInt(permit.payment.payAmount) < BigInt(offer.amount)) return fail('permit_amount_insufficient', `payment.payAmount is below ${offer.amount}`, buyer);
  const fee = offer.extra.fee as { feeTo: string; feeAmount: string };
  if (permit.fee.feeTo !== fee.feeTo || BigInt(permit.fee.feeAmount) < BigInt(fee.feeAmount))
    return fail('permit_fee_mismatch', 'fee does not match the offer', buyer);
  if (permit.caller !== TRON_ZERO_ADDRESS && permit.caller !== MOCK_PAY_TO.facilitator)
    return fail('permit_caller_mismatch', 'caller must be the zero address or the facilitator', buyer);
  const nowS = Math.floor(paywall.now() / 1000);
  if (Number(permit.meta.validAfter) > nowS) return fail('permit_not_yet_valid', 'validAfter is in the future', buyer);
  if (Number(permit.meta.validBefore) < nowS) return fail('permit_expired', 'the permit window has ended', buyer);
  const network = tronNetworkName(offer.network)!;
  let typed: TypedDataDefinition;
  try {
    typed = paymentPermitTypedData(permit, TRON_CHAIN_IDS[network], PAYMENT_PERMIT_CONTRACTS[network]);
  } catch (error) {
    return fail('invalid_payload', (error as Error).message, buyer);
  }
  const signer = await recoverTypedData(typed, signature);
  if (!signer || signer.toLowerCase() !== tronAddressToEvmHex(buyer))
    return fail('invalid_exact_permit_signature', 'the signature does not recover to buyer', buyer);
  const funds = paywall.checkFunds(offer, buyer);
  if (funds) return funds;
  return {
    ok: true,
    payer: buyer,
    settle: () => {
      if (issued.used) return fail('permit_payment_id_used', 'meta.paymentId was already used', buyer);
      issued.used = true;
      const tx = paywall.chain.syntheticTransfer({
        token: offer.token as ChainToken,
        from: buyer,
        to: offer.payTo,
        amount: BigInt(permit.payment.payAmount),
        mint: !paywall.options.requireFunds,
        label: 'permit',
      });
      return paywall.settled(2, offer, buyer, tx.txid, permit.payment.payAmount, req);
    },
  };
}

// ---- TRON exact_gasfree ----

/** Verify a GasFree transfer message (TIP-712) against the offer and the user's next nonce; `settle()` takes the nonce and moves the tokens (and the provider's fee). */
export async function verifyGasFree(paywall: PaywallState, payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
  const message = payload.gasfree as GasFreeMessageJson | undefined;
  const signature = payload.signature;
  if (!message || typeof signature !== 'string') return fail('missing_gasfree_payload', 'payload needs gasfree and signature');
  const user = message.user;
  for (const f of ['token', 'serviceProvider', 'user', 'receiver'] as const) {
    if (typeof message[f] !== 'string' || !isTronAddress(message[f])) return fail('missing_gasfree_payload', `gasfree.${f} is not a TRON address`);
  }
  for (const f of ['value', 'maxFee', 'deadline', 'version', 'nonce'] as const) {
    if (!/^\d+$/.test(String(message[f]))) return fail('missing_gasfree_payload', `gasfree.${f} must be an integer string`, user);
  }
  if (message.token !== offer.asset) return fail('gasfree_token_mismatch', `token is not ${offer.asset}`, user);
  if (message.receiver !== offer.payTo) return fail('gasfree_payto_mismatch', `receiver ${message.receiver} is not payTo ${offer.payTo}`, user);
  if (BigInt(message.value) < BigInt(offer.amount)) return fail('gasfree_amount_mismatch', `value is below ${offer.amount}`, user);
  if (message.serviceProvider !== MOCK_PAY_TO.gasfreeProvider) return fail('gasfree_fee_to_mismatch', 'serviceProvider is not a listed provider', user);
  if (BigInt(message.maxFee) < BigInt(paywall.options.gasfreeTransferFee)) return fail('gasfree_fee_too_low', 'maxFee is below the provider fee', user);
  if (Number(message.deadline) <= Math.floor(paywall.now() / 1000)) return fail('gasfree_expired', 'the deadline has passed', user);
  if (String(message.version) !== '1') return fail('missing_gasfree_payload', 'version must be 1', user);
  const expectedNonce = paywall.gasfreeNonces.get(user) ?? 0;
  if (Number(message.nonce) < expectedNonce) return fail('gasfree_nonce_used', `nonce ${message.nonce} was already used (next is ${expectedNonce})`, user);
  if (Number(message.nonce) !== expectedNonce) return fail('gasfree_nonce_mismatch', `nonce must be ${expectedNonce}`, user);
  if (payload.gasfreeAddress !== undefined && payload.gasfreeAddress !== gasFreeAddressOf(user)) {
    return fail('gasfree_address_mismatch', 'gasfreeAddress is not the user’s GasFree address', user);
  }
  const network = tronNetworkName(offer.network)!;
  const signer = await recoverTypedData(gasFreeTypedData(message, TRON_CHAIN_IDS[network], GASFREE_CONTROLLERS[network]), signature);
  if (!signer || signer.toLowerCase() !== tronAddressToEvmHex(user)) return fail('invalid_gasfree_signature', 'the signature does not recover to user', user);
  const gasfreeAddress = gasFreeAddressOf(user);
  const funds = paywall.checkFunds(offer, gasfreeAddress, BigInt(message.maxFee));
  if (funds) return { ...funds, payer: user };
  return {
    ok: true,
    payer: user,
    settle: () => {
      if ((paywall.gasfreeNonces.get(user) ?? 0) !== Number(message.nonce)) return fail('gasfree_nonce_used', 'nonce already used', user);
      paywall.gasfreeNonces.set(user, Number(message.nonce) + 1);
      const mint = !paywall.options.requireFunds;
      const tx = paywall.chain.syntheticTransfer({
        token: offer.token as ChainToken,
        from: gasfreeAddress,
        to: offer.payTo,
        amount: BigInt(message.value),
        mint,
        label: 'gasfree',
      });
      const fee = BigInt(paywall.options.gasfreeTransferFee);
      if (fee > 0n)
        paywall.chain.syntheticTransfer({
          token: offer.token as ChainToken,
          from: gasfreeAddress,
          to: message.serviceProvider,
          amount: fee,
          mint,
          label: 'gasfree fee',
        });
      return paywall.settled(2, offer, user, tx.txid, message.value, req);
    },
  };
}

// ---- TRON exact (signed, not broadcast, TRC-20 transfer) ----

/** Verify a signed TRC-20 transfer as the chain would (signature, call, asset, recipient, amount, expiration, duplicate, TAPOS); `settle()` broadcasts it. */
export async function verifyTronExact(paywall: PaywallState, payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
  const signed = payload.signedTransaction as { txID?: string; raw_data_hex?: string; signature?: string[] } | undefined;
  const from = payload.from;
  if (!signed || typeof from !== 'string') return fail('invalid_payload', 'payload needs signedTransaction and from');
  const verified = verifySignedTransaction(signed as never, recoverSigner);
  if (!verified.ok) return fail('invalid_exact_tron_payload_signature', `the signed transaction does not verify (${verified.reason})`, from);
  const d = verified.decoded;
  if (d.contractType !== 'TriggerSmartContract' || !d.trc20Transfer) {
    return fail('invalid_exact_tron_payload_transaction', 'not a TRC-20 transfer(address,uint256) call', from);
  }
  if (verified.signer !== from) return fail('invalid_exact_tron_payload_from_mismatch', 'from is not the transaction owner', from);
  if (d.contractAddress !== offer.asset)
    return fail('invalid_exact_tron_payload_asset_mismatch', `the transfer calls ${d.contractAddress}, not ${offer.asset}`, from);
  if (d.trc20Transfer.to !== offer.payTo)
    return fail('invalid_exact_tron_payload_recipient_mismatch', `the transfer pays ${d.trc20Transfer.to}, not payTo ${offer.payTo}`, from);
  if (d.trc20Transfer.amount < BigInt(offer.amount)) return fail('invalid_exact_tron_payload_amount', `the transfer amount is below ${offer.amount}`, from);
  const now = paywall.now();
  if (d.expiration <= now) return fail('invalid_exact_tron_payload_expired', 'the transaction has expired', from);
  if (d.expiration > now + offer.maxTimeoutSeconds * 1000 + 60_000)
    return fail('invalid_exact_tron_payload_expiration_too_far', 'expiration is beyond maxTimeoutSeconds', from);
  const txid = d.txID.toLowerCase();
  if (paywall.usedTxIds.has(txid) || paywall.chain.transactions.has(txid)) return fail('duplicate_settlement', 'this transaction was already used', from);
  if (!paywall.chain.taposMatches(d.refBlockBytes, d.refBlockHash))
    return fail('invalid_exact_tron_payload_reference_block', 'the reference block is not a recent block of this chain', from);
  const funds = paywall.checkFunds(offer, from);
  if (funds) return funds;
  return {
    ok: true,
    payer: from,
    settle: () => {
      if (paywall.usedTxIds.has(txid)) return fail('duplicate_settlement', 'this transaction was already used', from);
      paywall.usedTxIds.add(txid);
      const result = paywall.chain.broadcast({ ...(signed as Record<string, unknown>), txID: txid } as never, { fundShortfall: !paywall.options.requireFunds });
      if (!result.result) return fail('exact_tron_broadcast_failed', `the network rejected the transaction: ${result.code}`, from);
      return paywall.settled(2, offer, from, txid, d.trc20Transfer!.amount.toString(), req);
    },
  };
}
