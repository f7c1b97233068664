/**
 * Small schema builders shared by the resource files.
 *
 * @internal
 * @packageDocumentation
 */
import Type, {
  type TArray,
  type TInteger,
  type TNull,
  type TProperties,
  type TSchema,
  type TUnion,
} from 'typebox';

/**
 * `schema | null`: the service writes `null` for absent objects, maps and lists.
 *
 * @internal
 */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()]);
}

/**
 * A map of string to string (`Meta`, `Env`, `Attributes`, ...).
 *
 * @internal
 */
export const StringMap = Type.Record(Type.String(), Type.String());

/**
 * A nullable list of `item`.
 *
 * @internal
 */
export function NullableArray<T extends TSchema>(item: T): TUnion<[TArray<T>, TNull]> {
  return Nullable(Type.Array(item));
}

/**
 * A duration in nanoseconds (a non-negative integer).
 *
 * @internal
 */
export function Nanoseconds(): TInteger {
  return Type.Integer({ minimum: 0 });
}

/**
 * The same properties with every one of them optional: how the lenient input form of a stored shape
 * (for example {@link ConstraintInput} from {@link Constraint}) is built.
 *
 * @since 0.1.0
 */
export type OptionalProperties<P extends TProperties> = {
  [K in keyof P]: ReturnType<typeof Type.Optional<P[K]>>;
};

/**
 * Makes every property optional, keeping each property's schema as it is.
 *
 * @internal
 */
export function optionalProperties<P extends TProperties>(properties: P): OptionalProperties<P> {
  const out: Record<string, TSchema> = {};
  for (const [key, schema] of Object.entries(properties)) {
    Object.defineProperty(out, key, {
      value: Type.Optional(schema),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as OptionalProperties<P>;
}
