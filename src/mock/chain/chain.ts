/**
 * A small simulated TRON chain: blocks every 3 s of mock time (ids derived from the height, so
 * any recent block can serve as a TAPOS reference), TRX and TRC-20 balances, delegated energy,
 * signed transactions that really verify, and TRC-20 Transfer events that watchers (watch,
 * receive, invoices) subscribe to. It backs the simulated node (/wallet/*), the paid endpoints
 * and the deposit flow, so everything runs offline.
 *
 * The chain is built in layers, one job per file: `blocks.ts` (time, block ids, TAPOS),
 * `ledger.ts` (transactions, retention, events, the node's views), `accounts.ts` (accounts,
 * balances, token contract state, delegated resources), `synthetic.ts` (the mock's own
 * transactions) and this file, the broadcast path: a signed transaction validated and executed.
 *
 * The rules are java-tron's (tronprotocol/java-tron), each cited where it is applied:
 * `Wallet.broadcastTransaction` (refusal codes and texts), `Manager.processTransaction`
 * (signature, TAPOS, expiration, duplicates, in that order), `BandwidthProcessor` (bandwidth,
 * accounts that do not exist), `TransferActuator` (account creation), `VMActuator`
 * (`getAccountEnergyLimitWithFixRatio`: the energy cap), `ReceiptCapsule.payEnergyBill` (stake
 * first, then TRX burnt), `TransactionCapsule.validatePubSignature` and
 * `AccountPermissionUpdateActuator` (account permissions, `permissions.ts`),
 * `Manager.consumeMultiSignFee`. src/mock/README.md lists them with what the mock leaves out.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type DecodedTransaction, type SignedTransactionLike, decodeRawDataHex } from '../../protocol/tron-transaction.js';
import { toTronAddress, tronAddressToHex } from '../../utils/address.js';
import type { ChainAccount, ChainTransaction, Trc20Transfer } from './types.js';
import { CHAIN_PARAMETERS, bandwidthBytes, bandwidthPlan, payBandwidth, runEnergy } from './fees.js';
import { decodeTransactionHex, packRawHex } from './views.js';
import { applyPermissionUpdate, permissionUpdateRefusal, signatureRefusal } from './permissions.js';
import { BLOCK_INTERVAL_MS, MAX_EXPIRATION_MS } from './blocks.js';
import { ChainSynthetic } from './synthetic.js';

// MockState (src/mock/state/index.ts) names the chain's labels from here: one import for both.
export { labelAddress } from './labels.js';

/**
 * A broadcast's outcome. Refusal codes and texts are java-tron's (`Wallet.broadcastTransaction`:
 * `SIGERROR` "Validate signature error: …", `DUP_TRANSACTION_ERROR` "Dup transaction.",
 * `TAPOS_ERROR` "Tapos check error.", `TRANSACTION_EXPIRATION_ERROR` "Transaction expired",
 * `BANDWITH_ERROR` "Account resource insufficient error.", `CONTRACT_VALIDATE_ERROR`
 * "Contract validate error : …").
 */
export type BroadcastResult =
  | { result: true; txid: string; code: 'SUCCESS'; transaction: ChainTransaction }
  | { result: false; txid?: string; code: string; message: string };

/** What {@link SimulatedChain.broadcast} may relax for the mock's own callers. */
export interface BroadcastOptions {
  /** Top the owner up (and activate it) so the transaction can execute: test wallets have no history. `'trx'`: TRX only, no tokens minted. */
  fundShortfall?: boolean | 'trx';
  /**
   * Broadcast as the node's `broadcasttransaction` does: the all-zero offline reference block of
   * `buildTrxTransfer` is a TAPOS error. The mock's own callers (deposits) may still use it.
   */
  strictTapos?: boolean;
}

const CONTRACT_VALIDATE = 'Contract validate error : ';

/**
 * A simulated TRON chain: accounts (TRX, TRC-20 balances, energy), blocks every 3 s of mock time,
 * transactions with receipts. Deposits, order fills, paid sends and the node routes all land here.
 */
export class SimulatedChain extends ChainSynthetic {
  /**
   * Validate and execute a signed transaction, as java-tron's `broadcasttransaction` does. The
   * transaction is what its `raw_data` JSON encodes (java-tron's `Util.packTransaction` rebuilds
   * it from the JSON and ignores `raw_data_hex` and `txID`); `raw_data_hex` is read only when
   * the JSON is absent or of a contract this chain does not encode. Checks in java-tron's order
   * (`Wallet.broadcastTransaction`, then `Manager.pushTransaction`/`processTransaction`):
   * expiration against the next slot, signature, TAPOS, expiration window, duplicate, then
   * bandwidth and the contract's own validation. A refusal changes nothing.
   */
  broadcast(signed: SignedTransactionLike & Record<string, unknown>, options: BroadcastOptions = {}): BroadcastResult {
    const rawHex = packRawHex(signed);
    if (rawHex === undefined) return { result: false, code: 'SIGERROR', message: 'Validate signature error: miss sig or contract' };
    const txid = bytesToHex(sha256(hexToBytes(rawHex)));
    let d: DecodedTransaction;
    try {
      d = decodeRawDataHex(rawHex);
    } catch (error) {
      return { result: false, txid, code: 'OTHER_ERROR', message: `Error: ${(error as Error).message}` };
    }
    // Wallet.broadcastTransaction: TransactionCapsule.checkExpiration(next block slot time).
    const head = this.height();
    const headTime = this.blockTime(head);
    const expired = { result: false as const, txid, code: 'TRANSACTION_EXPIRATION_ERROR', message: 'Transaction expired' };
    if (d.expiration < headTime + BLOCK_INTERVAL_MS) return expired;
    // TransactionCapsule.validatePubSignature: the signatures against the permission the contract names (permissions.ts).
    const signatures = Array.isArray(signed.signature) ? signed.signature : [];
    if (signatures.some((sig) => typeof sig !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(sig)))
      return { result: false, txid, code: 'SIGERROR', message: 'Validate signature error: miss sig or contract' };
    const refusal = signatureRefusal(this.liveAccount(d.ownerAddress), d.ownerAddress, d.permissionId ?? 0, d.contractTypeId, signatures as string[], txid);
    if (refusal) return { result: false, txid, code: 'SIGERROR', message: `Validate signature error: ${refusal}` };
    // Manager.validateTapos: the reference must be one of the last 65,536 blocks.
    const offline = /^0+$/.test(d.refBlockHash) && /^0+$/.test(d.refBlockBytes);
    if (!(offline && !options.strictTapos) && !this.taposMatches(d.refBlockBytes, d.refBlockHash)) {
      return { result: false, txid, code: 'TAPOS_ERROR', message: 'Tapos check error.' };
    }
    // Manager.validateCommon: expiration after the head block, and at most 24 h after it.
    if (d.expiration <= headTime || d.expiration > headTime + MAX_EXPIRATION_MS) return expired;
    // Manager.validateDup.
    if (this.seen(txid)) return { result: false, txid, code: 'DUP_TRANSACTION_ERROR', message: 'Dup transaction.' };
    if (options.fundShortfall) this.#fundShortfall(d, rawHex, options.fundShortfall === 'trx');
    return this.#execute({ ...signed, txID: txid, raw_data_hex: rawHex }, d, rawHex);
  }

  /** The owner's record when it is an account (a TRC-20 balance alone makes none). */
  liveAccount(address: string): ChainAccount | undefined {
    const account = this.accounts.get(address);
    return account && !account.inactive ? account : undefined;
  }

  /** Top up (and activate) the owner so the transaction can execute: test wallets have no on-chain history here. */
  #fundShortfall(d: DecodedTransaction, rawHex: string, trxOnly: boolean): void {
    const owner = d.ownerAddress;
    this.activate(owner);
    let needSun = BigInt(bandwidthBytes(rawHex, 1) * CHAIN_PARAMETERS.getTransactionFee);
    if (d.contractType === 'TransferContract' && d.amountSun !== undefined) {
      needSun += d.amountSun;
      if (d.toAddress && !this.isActivated(d.toAddress))
        needSun += BigInt(CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract + CHAIN_PARAMETERS.getCreateAccountFee);
    } else if (d.trc20Transfer && d.contractAddress) {
      const token = this.token(d.contractAddress);
      if (!token) return;
      const short = d.trc20Transfer.amount - this.tokenBalance(owner, token.address);
      if (short > 0n && !trxOnly) this.syntheticTransfer({ token, to: owner, amount: short, label: 'top-up' });
      const energy = Math.max(0, this.trc20TransferEnergy(token.address, d.trc20Transfer.to) - this.availableEnergy(owner));
      needSun += BigInt(Math.min(energy * CHAIN_PARAMETERS.getEnergyFee, d.feeLimit ?? 0));
    }
    const short = needSun - this.trxBalance(owner);
    if (short > 0n) this.fundTrx(owner, short);
  }

  #execute(signed: Record<string, unknown>, d: DecodedTransaction, rawHex: string): BroadcastResult {
    const txid = d.txID.toLowerCase();
    const owner = d.ownerAddress;
    const signatures = (signed.signature as string[] | undefined)?.length ?? 1;
    const netUsed = bandwidthBytes(rawHex, signatures);
    const json: Record<string, unknown> = { ...signed, txID: txid };
    delete json.visible;
    const refuse = (code: string, message: string): BroadcastResult => ({ result: false, txid, code, message });
    // BandwidthProcessor.consume: the owner must exist ("account [...] does not exist").
    const from = this.accounts.get(owner);
    if (!from || from.inactive) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}account [${owner}] does not exist`);
    this.willChange(owner);
    // Manager.consumeMultiSignFee, after the bandwidth and before the contract: 1 TRX burnt when more than one signature;
    // a balance short of it is the bandwidth refusal ("insufficient balance[…] to multiSign").
    const multiSign = signatures > 1 ? CHAIN_PARAMETERS.getMultiSignFee : 0;
    const multiSignShort = (burnt: number) => from.trx - BigInt(burnt) < BigInt(multiSign);
    if (d.contractType === 'TransferContract' && d.toAddress && d.amountSun !== undefined) {
      const createsAccount = !this.isActivated(d.toAddress);
      const bandwidth = bandwidthPlan(from, netUsed, createsAccount);
      if (!bandwidth || multiSignShort(bandwidth.burnt)) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      // TransferActuator.validate: amount + the 1 TRX account-creation fee, after the bandwidth burn (and the multi-signature fee).
      const createFee = createsAccount ? CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract : 0;
      if (d.amountSun <= 0n) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Amount must be greater than 0.`);
      if (d.toAddress === owner) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Cannot transfer TRX to yourself.`);
      if (from.trx - BigInt(bandwidth.burnt + multiSign) < d.amountSun + BigInt(createFee)) {
        return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Validate TransferContract error, balance is not sufficient.`);
      }
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= d.amountSun + BigInt(createFee + multiSign);
      this.account(d.toAddress, true)!.trx += d.amountSun;
      const netFeeSun = bandwidth.burnt;
      const transaction = this.record({
        txid,
        tx: json,
        result: 'SUCCESS',
        owner,
        contractType: d.contractType,
        energyUsed: 0,
        netUsed,
        feeSun: netFeeSun + createFee + multiSign,
        ...(netFeeSun ? { netFeeSun } : {}),
        ...(createFee ? { contractFeeSun: createFee } : {}),
        trxTransfer: { from: owner, to: d.toAddress, amountSun: d.amountSun, ...(d.dataHex ? { memoHex: d.dataHex } : {}) },
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    if (d.contractType === 'TriggerSmartContract' && d.contractAddress) {
      const token = this.token(d.contractAddress);
      // VMActuator.validate: the called address must hold a contract; fee_limit within the chain's maximum.
      if (!token) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}No contract or not a valid smart contract`);
      const feeLimit = d.feeLimit ?? 0;
      if (feeLimit < 0 || feeLimit > CHAIN_PARAMETERS.getMaxFeeLimit) {
        return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}feeLimit must be >= 0 and <= ${CHAIN_PARAMETERS.getMaxFeeLimit}`);
      }
      const bandwidth = bandwidthPlan(from, netUsed, false);
      if (!bandwidth || multiSignShort(bandwidth.burnt)) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= BigInt(multiSign);
      const outcome = this.callToken(token, owner, d.callData ?? '');
      const run = runEnergy(from, outcome, feeLimit);
      const moved =
        run.result === 'SUCCESS' && outcome.status === 'SUCCESS' && outcome.transfer
          ? this.moveToken(token, owner, outcome.transfer.to, outcome.transfer.amount, false)
          : run.result === 'SUCCESS';
      const transfer: Trc20Transfer | undefined =
        outcome.status === 'SUCCESS' && outcome.transfer && run.result === 'SUCCESS'
          ? { txid, token, from: owner, to: outcome.transfer.to, amount: outcome.transfer.amount, block: 0, timestamp: 0 }
          : undefined;
      const netFeeSun = bandwidth.burnt;
      const transaction = this.record({
        txid,
        tx: json,
        result: moved ? 'SUCCESS' : 'REVERT',
        owner,
        contractType: d.contractType,
        energyUsed: run.used,
        netUsed,
        feeSun: run.burnt + netFeeSun + multiSign,
        energyFromStake: run.fromStake,
        ...(run.penalty ? { energyPenalty: run.penalty } : {}),
        ...(run.burnt ? { energyFeeSun: run.burnt } : {}),
        ...(netFeeSun ? { netFeeSun } : {}),
        ...(run.result === 'OUT_OF_ENERGY' ? { receiptResult: 'OUT_OF_ENERGY' } : {}),
        contractResult: run.result === 'OUT_OF_ENERGY' ? '' : outcome.result,
        ...(run.message ? { resMessage: run.message } : {}),
        ...(transfer ? { transfer } : {}),
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    if (d.contractType === 'Contract0') {
      // AccountCreateContract (type 0): owner_address = 1, account_address = 2, both 21 bytes.
      const ownerHex = tronAddressToHex(owner).toLowerCase();
      const at = rawHex.indexOf(`0a15${ownerHex}1215`);
      const accountHex = at === -1 ? undefined : rawHex.slice(at + 50, at + 92);
      if (!accountHex || !/^41[0-9a-f]{40}$/.test(accountHex)) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Invalid account address`);
      const created = toTronAddress(accountHex);
      // CreateAccountActuator.validate: the account must not exist; the owner pays 1 TRX
      // (getCreateNewAccountFeeInSystemContract); bandwidth as for a new account (BandwidthProcessor).
      if (this.isActivated(created)) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Account has existed`);
      const bandwidth = bandwidthPlan(from, netUsed, true);
      if (!bandwidth || multiSignShort(bandwidth.burnt)) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      const fee = CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract;
      if (from.trx - BigInt(bandwidth.burnt + multiSign) < BigInt(fee))
        return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Validate CreateAccountActuator error, insufficient fee.`);
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= BigInt(fee + multiSign);
      this.activate(created);
      return this.#systemContract({ txid, tx: json, owner, contractType: 'AccountCreateContract', netUsed }, bandwidth.burnt, fee + multiSign, fee);
    }
    if (d.contractType === 'AccountPermissionUpdateContract' && d.permissionUpdate) {
      const bandwidth = bandwidthPlan(from, netUsed, false);
      if (!bandwidth || multiSignShort(bandwidth.burnt)) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      // AccountPermissionUpdateActuator.validate (permissions.ts), then execute: the fee (getUpdateAccountPermissionFee)
      // is burnt in execute, so a short balance is an execution error (Commons.adjustBalance), not a validation one.
      const problem = permissionUpdateRefusal(d.permissionUpdate, from);
      if (problem) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}${problem}`);
      const fee = CHAIN_PARAMETERS.getUpdateAccountPermissionFee;
      const left = from.trx - BigInt(bandwidth.burnt + multiSign);
      if (left < BigInt(fee))
        return refuse('CONTRACT_EXE_ERROR', `Contract execute error : ${tronAddressToHex(owner)} insufficient balance, balance: ${left}, amount: ${fee}`);
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= BigInt(fee + multiSign);
      applyPermissionUpdate(from, d.permissionUpdate);
      return this.#systemContract({ txid, tx: json, owner, contractType: d.contractType, netUsed }, bandwidth.burnt, fee + multiSign, fee);
    }
    return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}contract ${d.contractType} is not simulated`);
  }

  /** A system contract that ran (no energy): its record with the bandwidth burnt, the fees (`fees`, its own `contractFee` among them). */
  #systemContract(
    base: Pick<ChainTransaction, 'txid' | 'tx' | 'owner' | 'contractType' | 'netUsed'>,
    burnt: number,
    fees: number,
    contractFee: number,
  ): BroadcastResult {
    const transaction = this.record({
      ...base,
      result: 'SUCCESS',
      energyUsed: 0,
      feeSun: burnt + fees,
      ...(burnt ? { netFeeSun: burnt } : {}),
      contractFeeSun: contractFee,
    });
    return { result: true, txid: base.txid, code: 'SUCCESS', transaction };
  }

  /** Node-style decode of a broadcasthex payload: Transaction { raw_data = 1; signature = 2 }. */
  static decodeTransactionHex(hex: string): SignedTransactionLike & Record<string, unknown> {
    return decodeTransactionHex(hex);
  }
}
