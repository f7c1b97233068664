/**
 * WebSocket upgrades with bad parameters: the exec endpoint with a missing, malformed or unknown
 * command, task, allocation or flag, handshakes with a bad key or version, and upgrades of
 * endpoints that are not WebSockets.
 *
 * @packageDocumentation
 */
import fc from 'fast-check';
import type { FuzzCase, Role } from './cases.js';
import type { Operation } from './openapi.js';

const goodKey = 'dGhlIHNhbXBsZSBub25jZQ==';

const upgradeHeaders = fc.oneof(
  { arbitrary: fc.constant({ key: goodKey, version: '13', upgrade: 'websocket' }), weight: 4 },
  fc.record({
    key: fc.constantFrom(goodKey, '', 'short', '!!!!', 'x'.repeat(4096)),
    version: fc.constantFrom('13', '8', '', 'abc', '99999999999999999999'),
    upgrade: fc.constantFrom('websocket', 'WebSocket', 'h2c', ''),
  }),
);

/** Query values of the exec endpoint: at least one of them is wrong. */
const badExecQuery = fc
  .record({
    command: fc.constantFrom(
      undefined,
      '',
      'ls',
      '%5B%5D',
      '%7B%7D',
      '%5B1%2C2%5D',
      '%5B%22sh%22',
      encodeURIComponent('["__proto__"]'),
      encodeURIComponent(JSON.stringify(['x'.repeat(5000)])),
      encodeURIComponent('["/bin/sh","-c","echo hi"]'),
    ),
    task: fc.constantFrom(undefined, '', 'nope', '__proto__', 'constructor', 'web', 'x'.repeat(2000)),
    tty: fc.constantFrom(undefined, 'true', 'maybe', '2'),
    ws_handshake: fc.constantFrom(undefined, 'false', 'yes', '-1'),
    region: fc.constantFrom(undefined, 'global', 'elsewhere', '__proto__'),
  })
  .map((query) =>
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${value as string}`)
      .join('&'),
  );

/**
 * Upgrade requests with bad parameters.
 * @param operations - The operations of the description.
 * @param allocIds - Existing allocation IDs.
 * @param roles - The roles requests are sent as.
 * @returns The arbitrary.
 */
export function websocketArbitrary(
  operations: readonly Operation[],
  allocIds: readonly string[],
  roles: readonly Role[],
): fc.Arbitrary<FuzzCase> {
  const exec = operations.find((op) => op.websocket);
  if (exec === undefined) throw new Error('the description has no WebSocket operation');
  const others = operations.filter((op) => op.method === 'GET' && !op.websocket && !op.stream);
  const alloc = fc.constantFrom(...allocIds, 'nope', '__proto__', 'constructor', '%ff', 'a.b.c');
  const execCase = fc
    .tuple(alloc, badExecQuery, upgradeHeaders, fc.constantFrom(...roles))
    .map(([id, query, headers, role]) => ({
      operation: exec,
      target: `${exec.path.replace('{alloc_id}', id)}?${query}`,
      headers,
      role,
    }));
  const otherCase = fc
    .tuple(fc.constantFrom(...others), upgradeHeaders, fc.constantFrom(...roles))
    .map(([operation, headers, role]) => ({
      operation,
      target: operation.path.replace(/\{\w+\}/g, 'x'),
      headers,
      role,
    }));
  return fc
    .oneof({ arbitrary: execCase, weight: 3 }, otherCase)
    .map(({ operation, target, headers, role }): FuzzCase => ({
      operation,
      mutation: 'bad-upgrade',
      method: 'GET',
      target,
      headers: {
        connection: 'Upgrade',
        upgrade: headers.upgrade,
        'sec-websocket-key': headers.key,
        'sec-websocket-version': headers.version,
      },
      body: undefined,
      role,
    }));
}
