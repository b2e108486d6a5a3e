/**
 * Compile-time strictness for lenient responses. Response schemas keep fields the spec does not
 * list (a newer service may add some), so their inferred types carry an index signature
 * `[key: string]: unknown`, under which a misspelled field (`order.stauts`) still compiles. The
 * public response types drop that signature: only known fields type-check, and the rest stay
 * on the object at run time, read through {@link extraFields}.
 * @module
 */

/** `T` without index signatures, recursively (arrays and nested objects included). */
export type Known<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T // also the lenient enums' `string & {}`, which would otherwise count as an object
  : T extends (infer U)[]
    ? Known<U>[]
    : T extends readonly (infer U)[]
      ? readonly Known<U>[]
      : T extends (...args: never[]) => unknown
        ? T
        : T extends object
          ? [NamedKey<T>] extends [never]
            ? T // a record with no named field (e.g. chain parameters the spec does not list): kept open
            : { [K in keyof T as K extends NamedKey<T> ? K : never]: Known<T[K]> }
          : T;

/** The keys of `T` that name a field (not an index signature). */
type NamedKey<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: 0 };

/**
 * Every field a parsed response carries, the ones its type does not list included: the explicit
 * way to read a field the service added after this version.
 *
 * ```ts
 * import { extraFields } from 'trx-rent';
 *
 * const order = await client.orders.get(id);
 * // @ts-expect-error not a field of Order: a misspelling is a compile error
 * order.stauts;
 * extraFields(order).priority_fee_sun; // unknown: check it before use
 * ```
 */
export function extraFields(resource: object): Readonly<Record<string, unknown>> {
  return resource as Readonly<Record<string, unknown>>;
}
