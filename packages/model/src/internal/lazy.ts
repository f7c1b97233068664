/**
 * Schemas built on first use: importing `@sked/model` builds none of its hundreds of schemas, so a
 * program that uses a few (a command-line tool) does not pay for the rest at start-up.
 *
 * @internal
 * @packageDocumentation
 */

/** The operations of a proxy handler that forward to the (not yet filled) target. */
const TRAPS = [
  'get',
  'set',
  'has',
  'deleteProperty',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'defineProperty',
  'getPrototypeOf',
  'setPrototypeOf',
  'isExtensible',
  'preventExtensions',
] as const;

/**
 * A schema that `build` makes on the first operation on it (a property read, `in`, `Object.keys`,
 * ...), then is: the built schema's own properties, prototype and extensibility are copied onto the
 * object behind the returned proxy, whose traps are then removed, so every later operation reaches
 * that object directly. The value keeps one identity from the start (a `WeakMap` key, a schema
 * nested in another), so it is a drop-in for the eagerly built schema.
 *
 * @param build - Builds the schema (once).
 * @returns The schema, built when first touched.
 * @internal
 */
export function lazySchema<T extends object>(build: () => T): T {
  const target = {} as T;
  const handler: ProxyHandler<T> = {};
  const fill = (): void => {
    for (const trap of TRAPS) delete handler[trap];
    const built = build();
    Object.defineProperties(target, Object.getOwnPropertyDescriptors(built));
    Object.setPrototypeOf(target, Object.getPrototypeOf(built) as object | null);
    if (!Object.isExtensible(built)) Object.preventExtensions(target);
  };
  for (const trap of TRAPS) {
    handler[trap] = (...args: unknown[]): never => {
      fill();
      return (Reflect[trap] as (...a: unknown[]) => never)(...args);
    };
  }
  return new Proxy(target, handler);
}
