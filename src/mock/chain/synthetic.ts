/**
 * Transactions the mock makes itself, unsigned: TRC-20 transfers from the faucet or a payer
 * (funding, the `/__mock/` transfer helper, x402 settlements), TRX transfers (withdrawals paid,
 * deposits simulated by memo) and recorded contract calls (swaps). Each lands in a block with a
 * receipt like a broadcast one. The fourth layer of `SimulatedChain`, over its accounts.
 * @module
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeTransferCall } from '../../protocol/abi.js';
import { tronAddressToHex } from '../../utils/address.js';
import type { ChainToken, ChainTransaction, Trc20Transfer } from './types.js';
import { ChainAccounts } from './accounts.js';

/** The mock's own transfers and calls. */
export class ChainSynthetic extends ChainAccounts {
  /**
   * A TRC-20 transfer the mock makes itself (no signature): funding from the faucet, the
   * `/__mock/` transfer helper, x402 settlements. With `mint`, a payer short of funds is not an
   * error (the mock does not require x402 payers to hold tokens unless configured to).
   */
  syntheticTransfer(input: { token: ChainToken; from?: string; to: string; amount: bigint; mint?: boolean; label?: string }): ChainTransaction {
    const from = input.from ?? this.faucet;
    const txid = this.syntheticTxid();
    const moved = this.moveToken(input.token, from, input.to, input.amount, input.mint ?? false);
    const transfer: Trc20Transfer = { txid, token: input.token, from, to: input.to, amount: input.amount, block: 0, timestamp: 0 };
    const callData = encodeTransferCall(input.to, input.amount);
    return this.record({
      txid,
      tx: this.syntheticTx(txid, 'TriggerSmartContract', {
        owner_address: tronAddressToHex(from),
        contract_address: tronAddressToHex(input.token.address),
        data: callData,
      }),
      result: moved ? 'SUCCESS' : 'REVERT',
      owner: from,
      contractType: 'TriggerSmartContract',
      energyUsed: this.trc20TransferEnergy(input.token.address, input.to),
      netUsed: 345,
      feeSun: 0,
      ...(moved ? { transfer } : {}),
    });
  }

  /**
   * A TRX transfer the mock makes itself (the platform paying a withdrawal, an on-chain deposit
   * simulated by memo). The sender is funded for any shortfall first: the mock's treasury and its
   * test wallets have no on-chain history.
   */
  syntheticTrxTransfer(input: { from: string; to: string; amountSun: bigint; memo?: string; label: string }): ChainTransaction {
    const txid = this.syntheticTxid();
    const from = this.account(input.from, true)!;
    if (from.trx < input.amountSun) from.trx = input.amountSun;
    from.trx -= input.amountSun;
    this.account(input.to, true)!.trx += input.amountSun;
    const memoHex = input.memo === undefined ? undefined : bytesToHex(new TextEncoder().encode(input.memo));
    return this.record({
      txid,
      tx: this.syntheticTx(
        txid,
        'TransferContract',
        { owner_address: tronAddressToHex(input.from), to_address: tronAddressToHex(input.to), amount: Number(input.amountSun) },
        memoHex,
      ),
      result: 'SUCCESS',
      owner: input.from,
      contractType: 'TransferContract',
      energyUsed: 0,
      netUsed: 268,
      feeSun: 0,
      trxTransfer: { from: input.from, to: input.to, amountSun: input.amountSun, ...(memoHex ? { memoHex } : {}) },
    });
  }

  /** Record a swap or other synthetic contract call (no balance effects). */
  recordCall(owner: string, label: string, energyUsed = 0): ChainTransaction {
    const txid = this.syntheticTxid();
    return this.record({
      txid,
      tx: {
        txID: txid,
        raw_data: { contract: [{ type: 'TriggerSmartContract', parameter: { value: { owner_address: tronAddressToHex(owner) } } }], timestamp: this.now() },
        signature: [],
      },
      result: 'SUCCESS',
      owner,
      contractType: 'TriggerSmartContract',
      energyUsed,
      netUsed: 345,
      feeSun: 0,
    });
  }
}
