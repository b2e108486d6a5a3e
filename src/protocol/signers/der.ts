/**
 * The two DER structures a KMS hands back for a secp256k1 key: an ECDSA signature (ANSI X9.62
 * `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`, RFC 3279 §2.2.3) and a public key as
 * X.509 SubjectPublicKeyInfo (RFC 5480: `id-ecPublicKey` with the named curve secp256k1,
 * OID 1.3.132.0.10). Strict: a structure that is not exactly one of these is refused.
 * @module
 */
import { bytesToHex } from '@noble/hashes/utils.js';

interface Tlv {
  tag: number;
  value: Uint8Array;
  /** Offset of the byte after this element. */
  end: number;
}

function readTlv(buf: Uint8Array, at: number): Tlv {
  if (at + 2 > buf.length) throw new Error('DER: truncated');
  const tag = buf[at]!;
  let len = buf[at + 1]!;
  let i = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 2 || i + n > buf.length) throw new Error('DER: bad length');
    len = 0;
    for (let k = 0; k < n; k++) len = (len << 8) | buf[i++]!;
    if (len < 0x80) throw new Error('DER: non-minimal length');
  }
  if (i + len > buf.length) throw new Error('DER: truncated');
  return { tag, value: buf.subarray(i, i + len), end: i + len };
}

function positiveInteger(tlv: Tlv): bigint {
  if (tlv.tag !== 0x02 || tlv.value.length === 0) throw new Error('DER: expected an INTEGER');
  if (tlv.value[0]! & 0x80) throw new Error('DER: negative INTEGER');
  if (tlv.value.length > 1 && tlv.value[0] === 0 && !(tlv.value[1]! & 0x80)) throw new Error('DER: non-minimal INTEGER');
  return BigInt(`0x${bytesToHex(tlv.value)}`);
}

/** r and s of a DER-encoded ECDSA signature. */
export function decodeDerSignature(der: Uint8Array): { r: bigint; s: bigint } {
  const seq = readTlv(der, 0);
  if (seq.tag !== 0x30 || seq.end !== der.length) throw new Error('DER: a signature is one SEQUENCE');
  const r = readTlv(seq.value, 0);
  const s = readTlv(seq.value, r.end);
  if (s.end !== seq.value.length) throw new Error('DER: a signature SEQUENCE holds r and s only');
  return { r: positiveInteger(r), s: positiveInteger(s) };
}

const EC_PUBLIC_KEY = '2a8648ce3d0201'; // 1.2.840.10045.2.1 id-ecPublicKey
const SECP256K1 = '2b8104000a'; // 1.3.132.0.10 secp256k1

/** The uncompressed public key (65 bytes, 0x04 ‖ X ‖ Y) of a secp256k1 SubjectPublicKeyInfo. */
export function decodeSecp256k1Spki(der: Uint8Array): Uint8Array {
  const spki = readTlv(der, 0);
  if (spki.tag !== 0x30 || spki.end !== der.length) throw new Error('SPKI: not one SEQUENCE');
  const algorithm = readTlv(spki.value, 0);
  const key = readTlv(spki.value, algorithm.end);
  if (algorithm.tag !== 0x30 || key.tag !== 0x03 || key.end !== spki.value.length) throw new Error('SPKI: expected AlgorithmIdentifier and BIT STRING');
  const oid = readTlv(algorithm.value, 0);
  const curve = readTlv(algorithm.value, oid.end);
  if (oid.tag !== 0x06 || bytesToHex(oid.value) !== EC_PUBLIC_KEY) throw new Error('SPKI: not an elliptic-curve key');
  if (curve.tag !== 0x06 || bytesToHex(curve.value) !== SECP256K1) throw new Error('SPKI: not a secp256k1 key (ECC_SECG_P256K1)');
  if (key.value[0] !== 0) throw new Error('SPKI: BIT STRING with unused bits');
  const point = key.value.subarray(1);
  if (!((point.length === 65 && point[0] === 4) || (point.length === 33 && (point[0] === 2 || point[0] === 3)))) throw new Error('SPKI: not an EC point');
  return point;
}
