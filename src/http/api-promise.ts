/**
 * A Promise of the parsed result that also offers the raw Response, without a second API:
 * `await client.orders.create(p)` gives the order; `.withResponse()` gives `{ data, response }`
 * (e.g. to tell an idempotent replay, status 200, from a first create, status 201).
 * The request starts on first use (await, then, withResponse), not at construction.
 */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

export class ApiPromise<T> extends Promise<T> {
  #run: () => Promise<WithResponse<T>>;
  #started: Promise<WithResponse<T>> | undefined;

  constructor(run: () => Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#run = run;
  }

  // Promise subclasses must construct plain Promises for derived promises (then/catch chains).
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The parsed result together with the HTTP Response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    this.#started ??= this.#run();
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
