import type { CliReader } from './runtime.js';

/** Read all of `stream` (the run's stdin) as UTF-8 (callers check first that it is not a terminal). */
export async function readStdin(stream: CliReader): Promise<string> {
  return Buffer.from(await readStdinBytes(stream)).toString('utf8');
}

/** Read all of `stream` as raw bytes (for signatures: the body must not be re-encoded). */
export async function readStdinBytes(stream: CliReader): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return new Uint8Array(Buffer.concat(chunks));
}
