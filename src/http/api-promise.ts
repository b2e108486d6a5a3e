/**
 * A Promise of the parsed result that also offers the raw Response, without a second API:
 * `await client.orders.create(p)` gives the order; `.withResponse()` gives `{ data, response }`
 * (e.g. to tell an idempotent replay, status 200, from a first create, status 201).
 * Like any promise-returning call, the request starts at once: `void client.webhooks.delete(id)`
 * really deletes, and a rejection nobody handles is reported as unhandled (once).
 */
/** A parsed result with the raw Response it came from. */
export interface WithResponse<T> {
  /** The parsed body. */
  data: T;
  /** The raw Response (status, headers; its body is already read). */
  response: Response;
}

const ignore = () => undefined;

/**
 * A Promise of the parsed result that also offers the raw Response, without a second API:
 * `await client.orders.create(p)` gives the order; `.withResponse()` gives `{ data, response }`.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #started: Promise<WithResponse<T>>;

  /** `run` starts the request and must not throw synchronously (reject instead). */
  constructor(run: () => Promise<WithResponse<T>>) {
    let started!: Promise<WithResponse<T>>;
    // The promise itself settles with the data: awaiting it costs no extra promise chain.
    super((resolve, reject) => {
      started = run();
      started.then((result) => resolve(result.data), reject);
    });
    this.#started = started;
  }

  // Promise subclasses must construct plain Promises for derived promises (then/catch chains).
  /** Derived promises (`then`, `catch`) are plain Promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  static {
    // `await p` takes the engine's fast path only for a promise whose `constructor` is Promise;
    // for a subclass it schedules an extra job that calls `then`. ApiPromise overrides no
    // Promise method, so it can say it is a plain Promise and be awaited like one.
    Object.defineProperty(this.prototype, 'constructor', { value: Promise, writable: true, configurable: true });
  }

  /** The parsed result together with the HTTP Response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    // Whoever asks for the response handles the outcome there: the data promise is then not
    // reported as an unhandled rejection on its own.
    Promise.prototype.then.call(this, undefined, ignore);
    return this.#started;
  }
}
