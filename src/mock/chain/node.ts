/**
 * The simulated TRON node's HTTP API in java-tron's shapes (hex addresses unless the body says
 * `visible: true`; fields at their default value left out; `{}` for what does not exist). It
 * serves the `/wallet/*` calls a wallet, tronweb or a payout script makes (read an account, a
 * block, a transaction, a contract; build, simulate, estimate, broadcast a transfer) and the
 * same reads on `/walletsolidity/*`, where blocks, transactions and accounts are the solidified
 * block's, {@link SOLIDIFIED_LAG_BLOCKS} behind the head as on mainnet (a constant call there still
 * runs on the head's token balances).
 *
 * java-tron sources (tronprotocol/java-tron, `framework/.../services/http/`): `BroadcastServlet`
 * (`{result, txid}`, the refusal's `code` and hex `message`), `BroadcastHexServlet`,
 * `GetAccountServlet` / `GetAccountResourceServlet` (`{}` for an address that is no account),
 * `GetContractServlet`, `GetContractInfoServlet`; `Util.packTransaction` (the transaction is
 * rebuilt from the `raw_data` JSON). The multi-signature calls are in `node-permissions.ts`.
 * @module
 */
import { SimulatedChain } from './chain.js';
import { CHAIN_PARAMETERS } from './fees.js';
import { CHAIN_TOKENS } from './accounts.js';
import { SOLIDIFIED_LAG_BLOCKS } from './blocks.js';
import { TRC20_ABI } from './contracts.js';
import { NodeError, addressOf, createTransaction, estimateEnergy, hexMessage, show, triggerConstant, triggerSmart } from './node-contract.js';
import { accountPermissionUpdate, approvedList, signWeight } from './node-permissions.js';
import { permissionsJson } from './permissions.js';

export { NodeError } from './node-contract.js';
export { SOLIDIFIED_LAG_BLOCKS };

/** The calls the full node (`/wallet/*`) serves. */
export const NODE_METHODS = [
  'getnowblock',
  'getblock',
  'getblockbynum',
  'getblockbyid',
  'getblockbylatestnum',
  'getblockbylimitnext',
  'getaccount',
  'getaccountresource',
  'getaccountnet',
  'broadcasttransaction',
  'broadcasthex',
  'gettransactionbyid',
  'gettransactioninfobyid',
  'gettransactioninfobyblocknum',
  'triggerconstantcontract',
  'triggersmartcontract',
  'estimateenergy',
  'getchainparameters',
  'getcontractinfo',
  'getcontract',
  'createtransaction',
  'getnodeinfo',
  'getenergyprices',
  'getbandwidthprices',
  'getnextmaintenancetime',
  'getsignweight',
  'getapprovedlist',
  'accountpermissionupdate',
] as const;

/** The reads the solidity node (`/walletsolidity/*`) serves, on the solidified state. */
export const SOLIDITY_METHODS = [
  'getnowblock',
  'getblock',
  'getblockbynum',
  'getblockbyid',
  'getblockbylatestnum',
  'getblockbylimitnext',
  'getaccount',
  'gettransactionbyid',
  'gettransactioninfobyid',
  'gettransactioninfobyblocknum',
  'triggerconstantcontract',
  'estimateenergy',
] as const;

/** Which node answers: the full node (head state) or the solidity node (solidified state). */
export interface NodeView {
  solidity?: boolean;
}

/** A height given as a number or a decimal string. */
function heightOf(value: unknown, field: string): number {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isSafeInteger(n) || n < 0) throw new NodeError(`${field} is required`);
  return n;
}

/** One node call. Throws NodeError for bad input (answered as `{ Error: … }` like java-tron). */
export function nodeCall(chain: SimulatedChain, method: string, body: Record<string, unknown>, view: NodeView = {}): unknown {
  const visible = body.visible === true;
  const name = method.replace(/^\/?wallet(solidity)?\//, '');
  const solidity = view.solidity === true || /^\/?walletsolidity\//.test(method);
  if (solidity && !(SOLIDITY_METHODS as readonly string[]).includes(name)) throw new NodeError(`method ${name} is not served by the solidity node`);
  // The newest block this node knows: the head, or the solidified block.
  const top = solidity ? chain.solidifiedHeight() : chain.height();
  const blockAt = (height: number, detail = true) => (height <= top ? chain.block(height, detail) : undefined);
  const known = (txid: string) => {
    const tx = chain.transactions.get(txid.toLowerCase());
    return tx !== undefined && tx.block <= top;
  };
  switch (name) {
    case 'getnowblock':
      return chain.block(top);
    case 'getblock': {
      const id = body.id_or_num;
      const detail = body.detail === true;
      if (id === undefined || id === '') return chain.block(top, detail);
      const text = String(id);
      if (/^\d+$/.test(text)) return blockAt(Number(text), detail) ?? {};
      const height = Number.parseInt(text.slice(0, 16), 16);
      return chain.blockId(height) === text.toLowerCase() ? (blockAt(height, detail) ?? {}) : {};
    }
    case 'getblockbynum':
      return blockAt(heightOf(body.num, 'num')) ?? {};
    case 'getblockbyid': {
      const text = String(body.value ?? '').toLowerCase();
      const height = Number.parseInt(text.slice(0, 16), 16);
      return /^[0-9a-f]{64}$/.test(text) && chain.blockId(height) === text ? (blockAt(height) ?? {}) : {};
    }
    case 'getblockbylatestnum': {
      const count = Math.min(heightOf(body.num, 'num'), 100);
      const block = [];
      for (let h = Math.max(0, top - count + 1); h <= top; h++) {
        const b = chain.block(h);
        if (b) block.push(b);
      }
      return block.length ? { block } : {};
    }
    case 'getblockbylimitnext': {
      const start = heightOf(body.startNum, 'startNum');
      const end = Math.min(heightOf(body.endNum, 'endNum'), start + 100, top + 1);
      const block = [];
      for (let h = start; h < end; h++) {
        const b = chain.block(h);
        if (b) block.push(b);
      }
      return block.length ? { block } : {};
    }
    case 'getaccount':
      // The solidity node answers with the account as of the solidified block (java-tron's
      // solidity node reads its solidified database), the full node with the head's.
      return accountJson(chain, addressOf(body.address, 'address'), visible, solidity ? top : undefined);
    case 'getaccountresource':
      return accountResource(chain, addressOf(body.address, 'address'));
    case 'getaccountnet': {
      const resource = accountResource(chain, addressOf(body.address, 'address'));
      const net: Record<string, unknown> = {};
      for (const key of ['freeNetUsed', 'freeNetLimit', 'NetUsed', 'NetLimit', 'TotalNetLimit', 'TotalNetWeight'])
        if (key in resource) net[key] = resource[key];
      return net;
    }
    case 'broadcasttransaction': {
      if (body.raw_data === undefined && typeof body.raw_data_hex !== 'string') throw new NodeError('raw_data is required');
      const result = chain.broadcast(body as never, { strictTapos: true });
      // java-tron prints GrpcAPI.Return: on success `result: true` (code SUCCESS is the default, left out), then adds txid.
      return result.result
        ? { result: true, txid: result.txid }
        : { code: result.code, ...(result.txid ? { txid: result.txid } : {}), message: hexMessage(result.message) };
    }
    case 'broadcasthex': {
      let tx: ReturnType<typeof SimulatedChain.decodeTransactionHex>;
      try {
        tx = SimulatedChain.decodeTransactionHex(String(body.transaction ?? ''));
      } catch (error) {
        throw new NodeError(`transaction is not a hex-encoded Transaction: ${(error as Error).message}`);
      }
      const result = chain.broadcast(tx as never, { strictTapos: true });
      // BroadcastHexServlet: result, code, message as text, the transaction as JSON text, txid.
      return {
        result: result.result,
        code: result.code,
        message: result.result ? '' : result.message,
        transaction: JSON.stringify(chain.transactionJson(tx.txID) ?? tx),
        txid: result.txid ?? tx.txID,
      };
    }
    case 'gettransactionbyid': {
      const txid = String(body.value ?? '');
      return known(txid) ? (chain.transactionJson(txid) ?? {}) : {};
    }
    case 'gettransactioninfobyid': {
      const txid = String(body.value ?? '');
      return known(txid) ? (chain.transactionInfo(txid) ?? {}) : {};
    }
    case 'gettransactioninfobyblocknum': {
      // java-tron GetTransactionInfoByBlockNumServlet (and ...OnSolidityServlet on /walletsolidity):
      // `{ num }`, the receipts of the block's transactions as a JSON array, logs included
      // (`Wallet.getTransactionInfoByBlockNum`); a block beyond this node's newest, or an empty one, is `[]`.
      const height = heightOf(body.num, 'num');
      if (height > top) return [];
      return chain.blockTransactionIds(height).flatMap((id) => chain.transactionInfo(id) ?? []);
    }
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
        abi: { entrys: TRC20_ABI },
        consume_user_resource_percent: 100,
        name: token.name,
        origin_energy_limit: 10_000_000,
      };
      if (name === 'getcontract') return contract;
      // Dynamic energy: the contract's current energy_factor (java-tron ContractStateCapsule).
      const factor = chain.energyFactor(address);
      return {
        smart_contract: contract,
        contract_state: {
          energy_usage: 0,
          ...(factor ? { energy_factor: factor } : {}),
          update_cycle: Math.floor(chain.now() / CHAIN_PARAMETERS.getMaintenanceTimeInterval),
        },
      };
    }
    case 'triggerconstantcontract':
      return triggerConstant(chain, body);
    case 'triggersmartcontract':
      return triggerSmart(chain, body);
    case 'estimateenergy':
      return estimateEnergy(chain, body);
    case 'createtransaction':
      return createTransaction(chain, body);
    case 'getsignweight':
      return signWeight(chain, body);
    case 'getapprovedlist':
      return approvedList(chain, body);
    case 'accountpermissionupdate':
      return accountPermissionUpdate(chain, body);
    case 'getnodeinfo':
      return {
        beginSyncNum: chain.height(),
        block: `Num:${chain.height()},ID:${chain.blockId(chain.height())}`,
        solidityBlock: `Num:${chain.solidifiedHeight()},ID:${chain.blockId(chain.solidifiedHeight())}`,
        configNodeInfo: { codeVersion: 'mock', p2pVersion: '11111' },
      };
    case 'getenergyprices':
      return { prices: `0:${CHAIN_PARAMETERS.getEnergyFee}` };
    case 'getbandwidthprices':
      return { prices: `0:${CHAIN_PARAMETERS.getTransactionFee}` };
    case 'getnextmaintenancetime': {
      const interval = CHAIN_PARAMETERS.getMaintenanceTimeInterval;
      return { num: (Math.floor(chain.now() / interval) + 1) * interval };
    }
    default:
      throw new NodeError(`method ${name} is not simulated`);
  }
}

/**
 * `getaccount`: `{}` until TRX or an AccountCreate made the address an account; with `height`,
 * the account as of the end of that block (the solidity node's view).
 */
function accountJson(chain: SimulatedChain, address: string, visible: boolean, height?: number): Record<string, unknown> {
  if (!chain.isActivated(address, height)) return {};
  const contract = chain.isContract(address);
  const account = height === undefined ? chain.accounts.get(address) : chain.accountAt(address, height);
  const out: Record<string, unknown> = {
    address: show(address, visible),
    create_time: contract ? chain.genesisTime : (account?.createdAt ?? chain.genesisTime),
  };
  if (contract) out.type = 'Contract';
  if (!account) return out;
  if (account.trx > 0n) out.balance = Number(account.trx);
  if (account.freeNetUsed) out.free_net_usage = account.freeNetUsed;
  if (account.netUsed) out.net_usage = account.netUsed;
  // Not java-tron's (TronGrid's /v1 account shows it): the TRC-20 balances, kept for the mock's readers.
  const trc20 = CHAIN_TOKENS.filter((t) => (account.tokens.get(t.address) ?? 0n) > 0n).map((t) => ({ [t.address]: account.tokens.get(t.address)!.toString() }));
  if (trc20.length) out.trc20 = trc20;
  // Every account has its permissions (AccountCapsule: the defaults until an AccountPermissionUpdate).
  if (!contract) Object.assign(out, permissionsJson(account, visible));
  return out;
}

/** `getaccountresource`: `{}` for an address that is no account; zero fields left out. */
function accountResource(chain: SimulatedChain, address: string): Record<string, unknown> {
  if (!chain.isActivated(address)) return {};
  const account = chain.accounts.get(address);
  const out: Record<string, unknown> = {};
  if (account?.freeNetUsed) out.freeNetUsed = account.freeNetUsed;
  out.freeNetLimit = CHAIN_PARAMETERS.getFreeNetLimit;
  if (account?.netUsed) out.NetUsed = account.netUsed;
  if (account?.netLimit) out.NetLimit = account.netLimit;
  out.TotalNetLimit = 43_200_000_000;
  out.TotalNetWeight = 26_000_000_000;
  if (account?.energyUsed) out.EnergyUsed = account.energyUsed;
  if (account?.energyLimit) out.EnergyLimit = account.energyLimit;
  out.TotalEnergyLimit = CHAIN_PARAMETERS.getTotalEnergyLimit;
  out.TotalEnergyWeight = 19_000_000_000;
  return out;
}
