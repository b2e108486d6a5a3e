/**
 * The simulated TRON node's HTTP API (java-tron `/wallet/*` shapes, hex addresses unless the
 * body says `visible: true`). It serves the free `/wallet/*` routes (what tronweb needs to
 * build and broadcast a transfer) and the paid `x402Rpc` proxy.
 * @module
 */
import { bytesToHex } from '@noble/hashes/utils';
import { buildTrxTransfer } from '../../protocol/tron-transaction.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../utils/address.js';
import { CHAIN_PARAMETERS, CHAIN_TOKENS, SimulatedChain } from './chain.js';

export const NODE_METHODS = [
  'getnowblock',
  'getblock',
  'getblockbynum',
  'getaccount',
  'getaccountresource',
  'broadcasttransaction',
  'broadcasthex',
  'gettransactionbyid',
  'gettransactioninfobyid',
  'triggerconstantcontract',
  'triggersmartcontract',
  'getchainparameters',
  'getcontractinfo',
  'getcontract',
  'createtransaction',
  'getnodeinfo',
] as const;

export class NodeError extends Error {
  constructor(message: string) {
    super(message);
  }
}

function addressOf(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value) throw new NodeError(`${field} is required`);
  try {
    const address = toTronAddress(value);
    if (!isTronAddress(address)) throw new Error();
    return address;
  } catch {
    throw new NodeError(`${field} is not a valid address: ${value}`);
  }
}

function show(address: string, visible: boolean): string {
  return visible ? address : tronAddressToHex(address);
}

const hexMessage = (text: string) => bytesToHex(new TextEncoder().encode(text));

/** One node call. Throws NodeError for bad input (answered as `{ Error: … }` like java-tron). */
export function nodeCall(chain: SimulatedChain, method: string, body: Record<string, unknown>): unknown {
  const visible = body.visible === true;
  switch (method.replace(/^\/?wallet\//, '')) {
    case 'getnowblock':
      return chain.block();
    case 'getblock': {
      const id = body.id_or_num;
      const detail = body.detail === true;
      if (id === undefined || id === '') return chain.block(undefined, detail);
      const text = String(id);
      if (/^\d+$/.test(text)) return chain.block(Number(text), detail) ?? {};
      const height = Number.parseInt(text.slice(0, 16), 16);
      return chain.blockId(height) === text.toLowerCase() ? (chain.block(height, detail) ?? {}) : {};
    }
    case 'getblockbynum': {
      const num = Number(body.num);
      if (!Number.isSafeInteger(num)) throw new NodeError('num is required');
      return chain.block(num) ?? {};
    }
    case 'getaccount': {
      const address = addressOf(body.address, 'address');
      const account = chain.accounts.get(address);
      if (!account) return {};
      const out: Record<string, unknown> = { address: show(address, visible), create_time: account.createdAt };
      if (account.trx > 0n) out.balance = Number(account.trx);
      if (account.freeNetUsed) out.free_net_usage = account.freeNetUsed;
      const trc20 = CHAIN_TOKENS.filter((t) => (account.tokens.get(t.address) ?? 0n) > 0n).map((t) => ({
        [t.address]: account.tokens.get(t.address)!.toString(),
      }));
      if (trc20.length) out.trc20 = trc20;
      return out;
    }
    case 'getaccountresource': {
      const address = addressOf(body.address, 'address');
      const account = chain.accounts.get(address);
      const out: Record<string, unknown> = {
        freeNetLimit: CHAIN_PARAMETERS.getFreeNetLimit,
        TotalNetLimit: 43_200_000_000,
        TotalNetWeight: 26_000_000_000,
        TotalEnergyLimit: CHAIN_PARAMETERS.getTotalEnergyLimit,
        TotalEnergyWeight: 19_000_000_000,
      };
      if (account?.freeNetUsed) out.freeNetUsed = account.freeNetUsed;
      if (account?.netLimit) out.NetLimit = account.netLimit;
      if (account?.netUsed) out.NetUsed = account.netUsed;
      if (account?.energyLimit) out.EnergyLimit = account.energyLimit;
      if (account?.energyUsed) out.EnergyUsed = account.energyUsed;
      return out;
    }
    case 'broadcasttransaction': {
      if (typeof body.txID !== 'string') throw new NodeError('txID is required');
      const result = chain.broadcast(body as never);
      return result.result
        ? { result: true, txid: result.txid, code: 'SUCCESS' }
        : { result: false, code: result.code, txid: result.txid, message: hexMessage(result.message) };
    }
    case 'broadcasthex': {
      let tx;
      try {
        tx = SimulatedChain.decodeTransactionHex(String(body.transaction ?? ''));
      } catch (error) {
        throw new NodeError(`transaction is not a hex-encoded Transaction: ${(error as Error).message}`);
      }
      const result = chain.broadcast(tx as never);
      return result.result
        ? { result: true, txid: result.txid, code: 'SUCCESS' }
        : { result: false, code: result.code, txid: result.txid, message: hexMessage(result.message) };
    }
    case 'gettransactionbyid':
      return chain.transactionJson(String(body.value ?? '')) ?? {};
    case 'gettransactioninfobyid':
      return chain.transactionInfo(String(body.value ?? '')) ?? {};
    case 'getchainparameters':
      return { chainParameter: Object.entries(CHAIN_PARAMETERS).map(([key, value]) => ({ key, value })) };
    case 'getcontract':
    case 'getcontractinfo': {
      const address = addressOf(body.value, 'value');
      const token = chain.token(address);
      if (!token) return {};
      const contract = {
        origin_address: show(chain.faucet, visible),
        contract_address: show(address, visible),
        name: token.name,
        consume_user_resource_percent: 100,
        origin_energy_limit: 10_000_000,
        abi: { entrys: TRC20_ABI },
      };
      return method.endsWith('getcontract') ? contract : { smart_contract: contract, contract_state: { energy_usage: 0, energy_factor: 0, update_cycle: chain.height() } };
    }
    case 'triggerconstantcontract':
      return triggerConstant(chain, body, true);
    case 'triggersmartcontract':
      return triggerConstant(chain, body, false);
    case 'createtransaction': {
      const from = addressOf(body.owner_address, 'owner_address');
      const to = addressOf(body.to_address, 'to_address');
      const amount = Number(body.amount);
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new NodeError('amount must be a positive integer');
      const height = chain.height();
      return buildTrxTransfer({ from, to, amountSun: amount, refBlock: { number: height, hash: chain.blockId(height) }, now: chain.now() });
    }
    case 'getnodeinfo':
      return { beginSyncNum: chain.height(), block: `Num:${chain.height()},ID:${chain.blockId(chain.height())}`, configNodeInfo: { codeVersion: 'mock', p2pVersion: '11111' } };
    default:
      throw new NodeError(`method ${method} is not simulated`);
  }
}

const TRC20_ABI = [
  { type: 'Function', name: 'balanceOf', inputs: [{ name: 'who', type: 'address' }], outputs: [{ type: 'uint256' }], constant: true },
  { type: 'Function', name: 'decimals', outputs: [{ type: 'uint8' }], constant: true },
  { type: 'Function', name: 'symbol', outputs: [{ type: 'string' }], constant: true },
  { type: 'Function', name: 'name', outputs: [{ type: 'string' }], constant: true },
  { type: 'Function', name: 'transfer', inputs: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }], outputs: [{ type: 'bool' }] },
];

function abiString(text: string): string {
  const bytes = bytesToHex(new TextEncoder().encode(text));
  return '20'.padStart(64, '0') + (bytes.length / 2).toString(16).padStart(64, '0') + bytes.padEnd(Math.ceil(bytes.length / 64) * 64, '0');
}

/** A contract call run without a transaction; `simulate`: as java-tron's constant call, which executes it (a transfer beyond the owner's balance reverts). */
function triggerConstant(chain: SimulatedChain, body: Record<string, unknown>, simulate: boolean): unknown {
  const contract = addressOf(body.contract_address, 'contract_address');
  const token = chain.token(contract);
  const selector = String(body.function_selector ?? '').replace(/\s/g, '');
  const parameter = String(body.parameter ?? '');
  const ok = (words: string[], energy = 0) => ({ result: { result: true }, energy_used: energy, constant_result: words });
  if (!token) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hexMessage('No contract or not a smart contract') } };
  switch (selector) {
    case 'balanceOf(address)': {
      const who = toTronAddress(`41${parameter.slice(24, 64)}`);
      return ok([chain.tokenBalance(who, token.address).toString(16).padStart(64, '0')], 943);
    }
    case 'decimals()':
      return ok([token.decimals.toString(16).padStart(64, '0')], 200);
    case 'symbol()':
      return ok([abiString(token.symbol)], 300);
    case 'name()':
      return ok([abiString(token.name)], 300);
    case 'transfer(address,uint256)': {
      const to = toTronAddress(`41${parameter.slice(24, 64)}`);
      if (simulate && typeof body.owner_address === 'string') {
        const owner = addressOf(body.owner_address, 'owner_address');
        const amount = /^[0-9a-fA-F]{128}$/.test(parameter) ? BigInt(`0x${parameter.slice(64)}`) : 0n;
        if (chain.tokenBalance(owner, token.address) < amount) {
          return { result: { code: 'CONTRACT_EXE_ERROR', message: hexMessage('REVERT opcode executed') }, energy_used: 0 };
        }
      }
      return ok(['1'.padStart(64, '0')], chain.trc20TransferEnergy(token.address, to));
    }
    default:
      return { result: { code: 'CONTRACT_EXE_ERROR', message: hexMessage(`REVERT: ${selector} is not simulated`) } };
  }
}
