/**
 * The few protobuf wire types TRON transactions use: varint and length-delimited fields to
 * encode, and a flat field reader to decode (fixed32/fixed64 skipped). Shared by the raw-data
 * codec and the transaction builder; nothing here knows TRON.
 * @module
 */

/** One varint (int64 two's complement for negatives), as protobuf encodes it. */
export function varint(value: bigint | number): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n; // int64 two's complement, as protobuf encodes negatives
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

/** A varint field: its key (wire type 0), then the value. */
export function fieldVarint(field: number, value: bigint | number): number[] {
  return [...varint((field << 3) | 0), ...varint(value)];
}

/** A length-delimited field (wire type 2): its key, the length, then the bytes. */
export function fieldBytes(field: number, bytes: Uint8Array | number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
}

/** One field read by {@link readPb}: a varint's value in `int`, a length-delimited field's bytes in `bytes`. */
export interface PbField {
  /** The field number. */
  field: number;
  /** The wire type (0 varint, 2 length-delimited; 1 and 5 are skipped). */
  wire: number;
  /** The value of a varint field. */
  int?: bigint;
  /** The bytes of a length-delimited field (a view into the buffer). */
  bytes?: Uint8Array;
}

/** The fields of one protobuf message, in order, not nested; throws on a truncated buffer or an unknown wire type. */
export function readPb(buf: Uint8Array): PbField[] {
  const fields: PbField[] = [];
  let i = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated varint');
      const byte = buf[i++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  };
  while (i < buf.length) {
    const key = Number(readVarint());
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ field, wire, int: readVarint() });
    else if (wire === 2) {
      const len = Number(readVarint());
      if (i + len > buf.length) throw new Error('truncated field');
      fields.push({ field, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return fields;
}
