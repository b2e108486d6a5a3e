/**
 * `transfers.estimate`: what a TRC-20 transfer needs (energy and bandwidth simulated on the node)
 * and costs, burning TRX against renting the deficit; and the refusals that come before any
 * rental (a sender that is no account, too few tokens, a transfer that would revert).
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { encodeTransferArgs } from '../protocol/abi.js';
import { Orders } from '../resources/orders.js';
import { atomicToDecimal, decimalToAtomic } from '../utils/units.js';
import { type TronNode, spendable } from './node.js';
import type { EngineDeps, EstimateTransferParams, TokenInfo, TransferEstimate } from './types.js';
import {
  DEFAULT_DURATION_SEC,
  NODE_BOUNDS,
  TRANSFER_SELECTOR,
  address,
  balanceOf,
  bandwidthOf,
  bounded,
  defaultFeeLimit,
  fees,
  invalid,
  positiveInt,
  quote,
  resolveToken,
} from './inputs.js';

/**
 * What makes a transfer fail on chain, refused before anything is rented (send calls estimate
 * first): a sender the chain does not know (java-tron answers `getaccount` with `{}` until TRX
 * or an AccountCreate reaches it; it could pay no fee), a token balance below the amount, and a
 * simulation that fails (a blacklisted sender, a paused token: the contract's revert reason).
 * Returns the successful simulation.
 */
async function refuseEarly(node: TronNode, t: { from: string; to: string; token: TokenInfo; atomic: bigint }, signal?: AbortSignal) {
  const { from, token, atomic } = t;
  const account = await node.getAccount(from, { signal });
  if (account.address === undefined && account.balance === 0 && account.create_time === 0) {
    throw new TrxRentError({
      code: 'SENDER_NOT_ACTIVATED',
      message: `${from} does not exist on chain (never activated): send it TRX first (any amount activates it, and it pays the bandwidth); nothing was ordered or sent`,
      details: { field: 'from', address: from },
    });
  }
  // A node simulates the transfer by running it: beyond the sender's balance it reverts. Say so plainly.
  const held = await balanceOf(node, token, from, from, signal);
  if (held < atomic) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TOKEN_BALANCE',
      message: `${from} holds ${atomicToDecimal(held, token.decimals)} ${token.symbol ?? token.address}, less than ${atomicToDecimal(atomic, token.decimals)}; nothing was ordered or sent`,
      details: { field: 'amount', balance: atomicToDecimal(held, token.decimals) },
    });
  }
  try {
    return await node.triggerConstantContract(
      { owner: from, contract: token.address, functionSelector: TRANSFER_SELECTOR, parameter: encodeTransferArgs(t.to, atomic) },
      { signal },
    );
  } catch (error) {
    if (!(error instanceof TrxRentError) || error.code !== 'SIMULATION_FAILED') throw error;
    const why = String(error.details?.reason ?? error.message);
    throw new TrxRentError({
      code: 'SIMULATION_FAILED',
      message: `The transfer would fail on chain: the node's simulation ${error.details?.reverted ? 'reverted' : 'failed'} (${why}); nothing was ordered or sent`,
      details: { ...error.details, field: 'from' },
      cause: error,
    });
  }
}

/** What a TRC-20 transfer needs and costs: burning TRX for it against renting the energy. Spends nothing. */
export async function estimateTransfer(
  deps: EngineDeps,
  params: EstimateTransferParams,
  /** `signatures` and `permissionId`: the transaction's size as a multi-signature account's signers will send it. */
  options: { signal?: AbortSignal | undefined; signatures?: number | undefined; permissionId?: number | undefined } = {},
): Promise<TransferEstimate> {
  const { node } = deps;
  const signal = options.signal;
  const from = address(params?.from, 'from');
  const to = address(params?.to, 'to');
  if (from === to) throw invalid('to', 'is the sender');
  const duration = params.duration === undefined ? DEFAULT_DURATION_SEC : positiveInt(params.duration, 'duration');
  const token = await resolveToken(node, params.token, from, signal);
  // The contract keeps what is sent to it: a transfer to the token's own address burns the tokens.
  if (to === token.address) throw invalid('to', `is the ${token.symbol ?? 'token'} contract itself: tokens sent to it are lost`);
  if (typeof params.amount !== 'string' && typeof params.amount !== 'number') throw invalid('amount', 'a decimal amount of the token is required');
  const atomic = decimalToAtomic(params.amount, token.decimals, 'amount');
  if (atomic <= 0n) throw invalid('amount', 'must be more than 0');
  if (atomic >= 2n ** 256n) throw invalid('amount', 'is too large');

  const simulated = await refuseEarly(node, { from, to, token, atomic }, signal);
  const [resource, fee, recipientBalance, block] = await Promise.all([
    node.getAccountResource(from, { signal }),
    fees(node, signal),
    balanceOf(node, token, from, to, signal),
    node.getNowBlock({ signal }),
  ]);
  const energyNeeded = simulated.energy_used;
  if (!(energyNeeded > 0)) throw new TrxRentError({ code: 'NODE_ERROR', message: 'triggerconstantcontract reported no energy for the transfer' });
  bounded(energyNeeded, NODE_BOUNDS.maxTransferEnergy, 'energy_used');
  // The size of the transaction as it will be sent (signing code loads here, not with the core).
  const { buildTrc20Transfer } = await import('../protocol/tron-transaction.js');
  const unsigned = buildTrc20Transfer({
    from,
    contract: token.address,
    to,
    amount: atomic,
    refBlock: { number: block.number, hash: block.id },
    now: deps.http.clock.now(),
    feeLimitSun: defaultFeeLimit(energyNeeded, fee.energy_sun),
    permissionId: options.permissionId,
  });
  const bandwidthNeeded = bandwidthOf(unsigned.raw_data_hex, options.signatures);

  const have = spendable(resource);
  const energyDeficit = Math.max(0, energyNeeded - have.energy);
  const bandwidthDeficit = have.bandwidth >= bandwidthNeeded ? 0 : bandwidthNeeded;
  const burn = { energy_sun: energyDeficit * fee.energy_sun, bandwidth_sun: bandwidthDeficit * fee.bandwidth_sun, total_sun: 0 };
  burn.total_sun = burn.energy_sun + burn.bandwidth_sun;
  const rent = energyDeficit > 0 ? await quote(new Orders(deps.http), 'ENERGY', energyDeficit, duration, signal) : null;
  const withRental = (rent?.cost_sun ?? 0) + burn.bandwidth_sun;
  return {
    from,
    to,
    token,
    amount: atomicToDecimal(atomic, token.decimals),
    amount_atomic: atomic.toString(),
    recipient_holds_token: recipientBalance > 0n,
    energy: { needed: energyNeeded, available: have.energy, deficit: energyDeficit },
    bandwidth: { needed: bandwidthNeeded, available: have.bandwidth, deficit: bandwidthDeficit },
    fees: fee,
    burn,
    rent,
    with_rental_sun: withRental,
    saving_sun: burn.total_sun - withRental,
  };
}
