/**
 * The mock service: the embedded mock server of `--mock` (started once per run) and any other
 * the run starts (`mock`, `demo`), each closed when the run ends. The mock's module is imported
 * only when one is started.
 * @module
 */
import type { MockServer, MockServerOptions } from '../../mock/index.js';
import { CliError } from '../errors.js';

/** What `startMockServer` from `trx-rent/mock` resolves to. */
export type MockHandle = MockServer;
/** The options of `startMockServer`. */
export type MockOptions = MockServerOptions;

/** The run's mock servers. */
export class MockService {
  readonly #onDispose: (fn: () => unknown) => void;
  readonly #debug: (message: string) => void;
  #embedded: Promise<MockHandle> | undefined;

  constructor(options: { onDispose: (fn: () => unknown) => void; debug: (message: string) => void }) {
    this.#onDispose = options.onDispose;
    this.#debug = options.debug;
  }

  /** The embedded mock of `--mock` (started once per run, closed on exit). */
  embedded(): Promise<MockHandle> {
    this.#embedded ??= this.start({ port: 0, host: '127.0.0.1' }).then((m) => {
      this.#debug(`embedded mock server at ${m.url}`);
      return m;
    });
    return this.#embedded;
  }

  /** A mock server with these options, closed when the run ends. */
  async start(options: MockOptions): Promise<MockHandle> {
    const mod = (await import('../../mock/index.js')) as { startMockServer?: (o: MockOptions) => Promise<MockHandle> };
    if (typeof mod.startMockServer !== 'function') {
      throw new CliError('NOT_AVAILABLE', 'The mock server is not part of this build');
    }
    const handle = await mod.startMockServer(options);
    this.#onDispose(() => handle.close());
    return handle;
  }
}
