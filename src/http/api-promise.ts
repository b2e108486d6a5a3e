/**
 * A Promise of the parsed result that also offers the raw Response, without a second API:
 * `await client.orders.create(p)` gives the order; `.withResponse()` gives `{ data, response }`
 * (e.g. to tell an idempotent replay, status 200, from a first create, status 201).
 * Like any promise-returning call, the request starts at once: `void client.webhooks.delete(id)`
 * really deletes, and a rejection nobody handles is reported as unhandled.
 */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

export class ApiPromise<T> extends Promise<T> {
  readonly #started: Promise<WithResponse<T>>;

  constructor(run: () => Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#started = run();
  }

  // Promise subclasses must construct plain Promises for derived promises (then/catch chains).
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The parsed result together with the HTTP Response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#started;
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.withResponse().then((r) => r.data).then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}
