/**
 * Small schema builders shared by the resource files.
 *
 * @internal
 * @packageDocumentation
 */
import Type, {
  type TArray,
  type TInteger,
  type TNumberOptions,
  type TNull,
  type TProperties,
  type TSchema,
  type TUnion,
} from 'typebox';
import { lazySchema } from './lazy.js';

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
export const StringMap = lazySchema(() => Type.Record(Type.String(), Type.String()));

/**
 * A nullable list of `item`.
 *
 * @internal
 */
export function NullableArray<T extends TSchema>(item: T): TUnion<[TArray<T>, TNull]> {
  return Nullable(Type.Array(item));
}

/**
 * An integer both sides carry exactly: within the service's 64-bit integers and within what a
 * JavaScript number holds without rounding (|n| <= 2^53 - 1), so `1e20` or `9007199254740993` is a
 * problem at its field rather than a value stored rounded or beyond what the service decodes. The
 * bounds are in the schema, so the OpenAPI description states them. Narrower bounds in `options`
 * win.
 *
 * @internal
 */
export function SafeInteger(options: TNumberOptions = {}): TInteger {
  return Type.Integer({
    ...options,
    minimum: Math.max(Number(options.minimum ?? -Number.MAX_SAFE_INTEGER), -Number.MAX_SAFE_INTEGER),
    maximum: Math.min(Number(options.maximum ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER),
  });
}

/**
 * A point in time in nanoseconds since the Unix epoch: any of the service's 64-bit integers (today's
 * times are beyond 2^53, so a JavaScript number carries them to about 256 ns). Beyond 64 bits is a
 * problem at its field.
 *
 * @internal
 */
export function UnixNanos(): TInteger {
  return Type.Integer({ minimum: -(2 ** 63), exclusiveMaximum: 2 ** 63 });
}

/**
 * A duration in nanoseconds (a non-negative integer).
 *
 * @internal
 */
export function Nanoseconds(): TInteger {
  return SafeInteger({ minimum: 0 });
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
