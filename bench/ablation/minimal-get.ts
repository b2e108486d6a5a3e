// The least code that does the SDK's essential work for GET /api/v1/prices, in one function: a
// lent AbortController, a deadline that aborts it and settles the call, `redirect: 'manual'` and
// the 3xx refusal, the body read up to a limit, then the shared decoding (`{data}` or bare, the
// error envelope, the schema's `safeParse`). No retries, hooks, caller signal, logging or
// `.withResponse()`. bench/ablation.mjs runs the SDK against it to show what the SDK's layers
// (resource method, ApiPromise, request loop, transport wrapper) cost over the same work.
import { deadline } from '../../src/http/deadline.js';
import { decodeResponse } from '../../src/http/response.js';
import { TimeoutError } from '../../src/errors/index.js';
import { PriceList } from '../../src/schemas/prices.js';

interface Lease {
  controller: AbortController;
  uses: number;
}

const LIMIT = 8 * 1024 * 1024;
const decoder = new TextDecoder();

/** `() => Promise<PriceList>` for `base` (an origin) and an API key. */
export function minimalGet(base: string, apiKey: string): () => Promise<unknown> {
  const url = `${base}/api/v1/prices`;
  const headers = { accept: 'application/json', 'x-api-key': apiKey };
  const label = 'GET /api/v1/prices';
  const idle: Lease[] = [];

  async function attempt(init: RequestInit, state: { reader?: ReadableStreamDefaultReader<Uint8Array> | undefined }) {
    const response = await fetch(url, init);
    if (response.status >= 300 && response.status <= 399) throw new Error(`${label}: redirect refused`);
    const declared = response.headers.get('content-length');
    if (declared !== null && Number(declared) > LIMIT) throw new Error(`${label}: too large`);
    let text = '';
    if (response.body) {
      const reader = response.body.getReader();
      state.reader = reader;
      // As the transport reads: no array for the usual one-chunk body.
      let first: Uint8Array | undefined;
      let chunks: Uint8Array[] | undefined;
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > LIMIT) throw new Error(`${label}: too large`);
        if (!first) first = value;
        else (chunks ??= [first]).push(value);
      }
      state.reader = undefined;
      if (first) text = decoder.decode(chunks ? Buffer.concat(chunks) : first);
    }
    return decodeResponse(PriceList, response, text, label);
  }

  return () =>
    new Promise((resolve, reject) => {
      const lease = idle.pop() ?? { controller: new AbortController(), uses: 0 };
      lease.uses++;
      const { controller } = lease;
      const state: { reader?: ReadableStreamDefaultReader<Uint8Array> | undefined } = {};
      const timer = deadline(30_000, () => {
        controller.abort();
        state.reader?.cancel().catch(() => undefined);
        reject(new TimeoutError(`${label} timed out`, undefined, { cause: 'timeout', url }));
      });
      attempt({ method: 'GET', headers, redirect: 'manual', signal: controller.signal }, state).then(
        (data) => {
          timer.cancel();
          if (!controller.signal.aborted && lease.uses < 16 && idle.length < 8) idle.push(lease);
          resolve(data);
        },
        (error: unknown) => {
          timer.cancel();
          reject(error);
        },
      );
    });
}
