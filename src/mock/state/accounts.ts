import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlnopad } from '@scure/base';
import { PERMISSIONS, type Permission } from '../../schemas/keys.js';
import { Ledger } from './ledger.js';
import type { Rng } from './rng.js';
import type { HeaderReader } from '../shared/headers.js';

/** JWTs the mock issues stay valid this long (by the mock clock). The spec does not say. */
export const JWT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** An API key as the mock stores it (the secret itself is kept only as the key the caller holds). */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  name: string;
  /** `sk_live_` + 64 hex. */
  secret: string;
  permissions: Permission[];
  created_at: number;
  revoked_at: number | null;
}

/** One simulated account: id, name, deposit memo, ledger, keys. */
export interface MockAccount {
  id: string;
  name: string;
  /** Per-user deposit memo (goes into raw_data.data of a deposit transfer). */
  memo: string;
  created_at: number;
  ledger: Ledger;
  keys: Map<string, ApiKeyRecord>;
}

/** Who made a request: an account, and the key used (absent for a JWT session). */
export interface AuthContext {
  account: MockAccount;
  key?: ApiKeyRecord;
  /** A JWT session carries every permission; a key carries its own. */
  permissions: ReadonlySet<Permission>;
  via: 'api_key' | 'jwt';
}

const MEMO = /^RENT-[0-9A-F]{8}$/;

export class Accounts {
  readonly byId = new Map<string, MockAccount>();
  readonly #byMemo = new Map<string, MockAccount>();
  readonly #keysBySecret = new Map<string, ApiKeyRecord>();
  readonly #permissionSets = new WeakMap<ApiKeyRecord, { list: Permission[]; length: number; set: ReadonlySet<Permission> }>();
  #jwtSecret: Uint8Array;

  constructor(
    private readonly rng: Rng,
    private readonly now: () => number,
  ) {
    this.#jwtSecret = sha256(new TextEncoder().encode(`trx-rent-mock-jwt:${rng.hex(32)}`));
  }

  create(name = 'account'): MockAccount {
    let memo: string;
    do memo = `RENT-${this.rng.hex(4).toUpperCase()}`;
    while (this.#byMemo.has(memo));
    const account: MockAccount = {
      id: `acct_${this.rng.hex(8)}`,
      name,
      memo,
      created_at: this.now(),
      ledger: new Ledger(this.now),
      keys: new Map(),
    };
    this.byId.set(account.id, account);
    this.#byMemo.set(memo, account);
    return account;
  }

  /** Every account with its keys and ledger, and the JWT signing secret (see persist.ts). */
  dump() {
    return {
      jwt_secret: [...this.#jwtSecret],
      accounts: [...this.byId.values()].map((a) => ({
        id: a.id,
        name: a.name,
        memo: a.memo,
        created_at: a.created_at,
        keys: [...a.keys.values()],
        ledger: a.ledger.dump(),
      })),
    };
  }

  /** Load a {@link dump} (replaces every account). */
  load(d: ReturnType<Accounts['dump']>): void {
    this.#jwtSecret = new Uint8Array(d.jwt_secret);
    this.byId.clear();
    this.#byMemo.clear();
    this.#keysBySecret.clear();
    for (const saved of d.accounts) {
      const ledger = new Ledger(this.now);
      ledger.load(saved.ledger);
      const account: MockAccount = { id: saved.id, name: saved.name, memo: saved.memo, created_at: saved.created_at, ledger, keys: new Map() };
      for (const key of saved.keys) {
        account.keys.set(key.id, key);
        if (key.revoked_at === null) this.#keysBySecret.set(key.secret, key);
      }
      this.byId.set(account.id, account);
      this.#byMemo.set(account.memo, account);
    }
  }

  get(id: string): MockAccount | undefined {
    return this.byId.get(id);
  }

  /** The account a memo belongs to; undefined for a malformed or unknown memo. */
  byMemo(memo: string): MockAccount | undefined {
    return MEMO.test(memo) ? this.#byMemo.get(memo) : undefined;
  }

  isMemoShaped(memo: string): boolean {
    return MEMO.test(memo);
  }

  /** A new key; `secrets` draws its secret (the demo key's is the seed's alone: see MockState). */
  createKey(account: MockAccount, name: string, permissions: readonly Permission[], secrets: Rng = this.rng): ApiKeyRecord {
    const key: ApiKeyRecord = {
      id: `key_${this.rng.hex(12)}`,
      account_id: account.id,
      name,
      secret: `sk_live_${secrets.hex(32)}`,
      permissions: PERMISSIONS.filter((p) => permissions.includes(p)),
      created_at: this.now(),
      revoked_at: null,
    };
    account.keys.set(key.id, key);
    this.#keysBySecret.set(key.secret, key);
    return key;
  }

  /** Revoke a live key of `account`. False when it does not exist there or is already revoked. */
  revokeKey(account: MockAccount, keyId: string): boolean {
    const key = account.keys.get(keyId);
    if (!key || key.revoked_at !== null) return false;
    key.revoked_at = this.now();
    this.#keysBySecret.delete(key.secret);
    return true;
  }

  /** A live key by its secret. */
  keyBySecret(secret: string): ApiKeyRecord | undefined {
    return this.#keysBySecret.get(secret);
  }

  /** HS256 JWT with `sub` = account id, valid for JWT_LIFETIME_MS by the mock clock. */
  issueJwt(account: MockAccount, lifetimeMs = JWT_LIFETIME_MS): string {
    const iat = Math.floor(this.now() / 1000);
    const header = b64json({ alg: 'HS256', typ: 'JWT' });
    const payload = b64json({ sub: account.id, iat, exp: iat + Math.floor(lifetimeMs / 1000), iss: 'trx-rent-mock' });
    return `${header}.${payload}.${this.#sign(`${header}.${payload}`)}`;
  }

  /** The account of a valid, unexpired JWT this state issued. */
  verifyJwt(token: string): MockAccount | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    if (!constantTimeEqual(this.#sign(`${header}.${payload}`), signature)) return undefined;
    try {
      const h = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(header))) as { alg?: unknown };
      if (h.alg !== 'HS256') return undefined;
      const claims = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(payload))) as { sub?: unknown; exp?: unknown };
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.now()) return undefined;
      return typeof claims.sub === 'string' ? this.byId.get(claims.sub) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Resolve credentials from headers: `X-API-Key` (any case), or `Authorization: Bearer`
   * carrying a JWT (or, leniently, a key). Undefined when missing or invalid.
   */
  authenticate(headers: HeaderReader): AuthContext | undefined {
    const apiKey = headers.get('x-api-key')?.trim();
    if (apiKey) return this.#fromKey(apiKey);
    const authorization = headers.get('authorization')?.trim();
    const match = authorization ? /^bearer\s+(\S+)$/i.exec(authorization) : null;
    if (!match) return undefined;
    const token = match[1]!;
    if (token.startsWith('sk_live_')) return this.#fromKey(token);
    const account = this.verifyJwt(token);
    return account ? { account, permissions: ALL_PERMISSIONS, via: 'jwt' } : undefined;
  }

  #fromKey(secret: string): AuthContext | undefined {
    const key = this.#keysBySecret.get(secret);
    const account = key && this.byId.get(key.account_id);
    if (!key || !account) return undefined;
    return { account, key, permissions: this.#permissionsOf(key), via: 'api_key' };
  }

  /** A key's permissions as a Set, built again only when its list changed (not once per request). */
  #permissionsOf(key: ApiKeyRecord): ReadonlySet<Permission> {
    const cached = this.#permissionSets.get(key);
    if (cached && cached.list === key.permissions && cached.length === key.permissions.length) return cached.set;
    const set = new Set(key.permissions);
    this.#permissionSets.set(key, { list: key.permissions, length: key.permissions.length, set });
    return set;
  }

  #sign(data: string): string {
    return base64urlnopad.encode(hmac(sha256, this.#jwtSecret, new TextEncoder().encode(data)));
  }
}

const ALL_PERMISSIONS: ReadonlySet<Permission> = new Set(PERMISSIONS);

function b64json(value: unknown): string {
  return base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)));
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
