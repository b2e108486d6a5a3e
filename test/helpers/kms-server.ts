/**
 * A loopback stand-in for AWS KMS that speaks its JSON API (AWS JSON 1.1: `POST /`, header
 * `X-Amz-Target: TrentService.GetPublicKey | TrentService.Sign`, blobs in base64), backed by real
 * secp256k1 keys from `node:crypto`, so the real `@aws-sdk/client-kms` client can be pointed at it
 * (`endpoint: http://127.0.0.1:PORT`, dummy credentials).
 *
 * `Sign` with `MessageType: DIGEST` must sign the 32 bytes as given. `crypto.sign` always hashes
 * (with a null algorithm an EC key still hashes with SHA-256), so the digest is signed one of two
 * ways, both by node's own EC code and both returning DER with a high or a low s as it falls:
 * a digest registered with its preimage (`digest = sha256(preimage)`, e.g. a txID and its raw
 * data) is `crypto.sign('sha256', preimage, { dsaEncoding: 'der' })`; any other digest is ECDSA
 * over the digest itself, R = k·G from `crypto.createECDH` (node's point multiplication),
 * s = k⁻¹(z + r·d) mod n, DER-encoded here.
 */
import { createECDH, createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

interface Key {
  privateKey: KeyObject;
  d: bigint;
  spki: Buffer;
  spec: string;
}

const big = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const bytes32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [((a % m) + m) % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

function derInteger(n: bigint): Buffer {
  let b = Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
  while (b.length > 1 && b[0] === 0 && !(b[1]! & 0x80)) b = b.subarray(1);
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return Buffer.concat([Buffer.from([0x02, b.length]), b]);
}

/** ECDSA over `digest` itself with node's EC arithmetic; s as it falls (high or low). */
function signRawDigest(d: bigint, digest: Uint8Array): Buffer {
  const z = big(digest);
  for (let attempt = 0; attempt < 16; attempt++) {
    const k = big(randomBytes(32)) % N;
    if (k === 0n) continue;
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(bytes32(k));
    const r = big(ecdh.getPublicKey().subarray(1, 33)) % N;
    const s = (modInverse(k, N) * (z + r * d)) % N;
    if (r === 0n || s === 0n) continue;
    const body = Buffer.concat([derInteger(r), derInteger(s)]);
    return Buffer.concat([Buffer.from([0x30, body.length]), body]);
  }
  throw new Error('no nonce in 16 tries');
}

/** A loopback KMS. */
export interface KmsStandIn {
  url: string;
  /** A new secp256k1 key (or another spec, to test refusals); returns its KeyId. */
  createKey(spec?: string): string;
  /** The key's uncompressed public key (65 bytes). */
  publicKey(keyId: string): Uint8Array;
  /** Sign digests equal to sha256(preimage) through `crypto.sign('sha256', preimage)`. */
  registerPreimage(preimage: Uint8Array): Uint8Array;
  /** Sign with this other key instead (a KMS that answers with the wrong key). */
  swapSigningKey(keyId: string, otherKeyId: string): void;
  /** The DER signatures it returned, in order. */
  signatures: Buffer[];
  /** Requests by X-Amz-Target. */
  calls: string[];
  close(): Promise<void>;
}

/** Start the stand-in on 127.0.0.1 (an ephemeral port). */
export async function startKmsStandIn(): Promise<KmsStandIn> {
  const keys = new Map<string, Key>();
  const swapped = new Map<string, string>();
  const preimages = new Map<string, Buffer>();
  const signatures: Buffer[] = [];
  const calls: string[] = [];
  let n = 0;
  const fail = (status: number, type: string, message: string) => ({ status, body: { __type: type, message } });
  const handle = (target: string, input: Record<string, unknown>): { status: number; body: unknown } => {
    const key = keys.get(String(input.KeyId));
    if (!key) return fail(400, 'NotFoundException', `Key '${String(input.KeyId)}' does not exist`);
    if (target === 'TrentService.GetPublicKey') {
      return {
        status: 200,
        body: {
          KeyId: input.KeyId,
          PublicKey: key.spki.toString('base64'),
          KeySpec: key.spec,
          CustomerMasterKeySpec: key.spec,
          KeyUsage: 'SIGN_VERIFY',
          SigningAlgorithms: ['ECDSA_SHA_256'],
        },
      };
    }
    if (target === 'TrentService.Sign') {
      if (input.MessageType !== 'DIGEST' || input.SigningAlgorithm !== 'ECDSA_SHA_256')
        return fail(400, 'ValidationException', 'this stand-in signs DIGEST with ECDSA_SHA_256 only');
      const digest = Buffer.from(String(input.Message ?? ''), 'base64');
      if (digest.length !== 32) return fail(400, 'ValidationException', 'Digest is invalid length for algorithm ECDSA_SHA_256.');
      const signer = keys.get(swapped.get(String(input.KeyId)) ?? '') ?? key;
      const preimage = preimages.get(digest.toString('hex'));
      const der = preimage ? sign('sha256', preimage, { key: signer.privateKey, dsaEncoding: 'der' }) : signRawDigest(signer.d, digest);
      signatures.push(der);
      return { status: 200, body: { KeyId: input.KeyId, Signature: der.toString('base64'), SigningAlgorithm: 'ECDSA_SHA_256' } };
    }
    return fail(400, 'UnknownOperationException', target);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      calls.push(target);
      let answer: { status: number; body: unknown };
      try {
        answer = handle(target, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      } catch (error) {
        answer = fail(400, 'SerializationException', String(error));
      }
      res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': `req-${calls.length}` });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    createKey(spec = 'ECC_SECG_P256K1') {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
      const jwk = privateKey.export({ format: 'jwk' }) as { d: string };
      const keyId = `key-${++n}`;
      keys.set(keyId, { privateKey, d: big(Buffer.from(jwk.d, 'base64url')), spki: publicKey.export({ format: 'der', type: 'spki' }), spec });
      return keyId;
    },
    publicKey(keyId) {
      const spki = keys.get(keyId)!.spki;
      return Uint8Array.from(spki.subarray(spki.length - 65));
    },
    registerPreimage(preimage) {
      const digest = createHash('sha256').update(preimage).digest();
      preimages.set(digest.toString('hex'), Buffer.from(preimage));
      return Uint8Array.from(digest);
    },
    swapSigningKey(keyId, otherKeyId) {
      swapped.set(keyId, otherKeyId);
    },
    signatures,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
