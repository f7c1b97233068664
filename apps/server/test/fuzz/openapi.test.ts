import { openApiDocument } from '@sked/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDescription, type Operation } from './openapi.js';
import { spliceMarkers, MARKERS, NESTING } from './mutations.js';

const description = readDescription(openApiDocument() as unknown as Record<string, unknown>);

function operation(operationId: string): Operation {
  const found = description.operations.find((op) => op.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  return found;
}

describe('readDescription', () => {
  it('reads every operation of the three listeners with its listener and success', () => {
    const listeners = new Set(description.operations.map((op) => op.listener));
    expect(listeners).toEqual(new Set(['scheduler', 'secrets', 'mesh']));
    expect(operation('execAllocation')).toMatchObject({ websocket: true, success: 101 });
    expect(operation('streamEvents')).toMatchObject({ stream: true });
    expect(operation('writeLdapGroup')).toMatchObject({
      success: 204,
      response: undefined,
      listener: 'secrets',
    });
    expect(operation('readPeering').pathParameters).toEqual(['name']);
  });

  it('validates a 2xx body against the documented schema (ajv, 2020-12)', () => {
    const list = operation('listPeerings');
    expect(description.validate(list, [])).toBeUndefined();
    expect(description.validate(list, [{ Name: 1 }])).toMatch(/must/);
    expect(description.validate(operation('readLeader'), '127.0.0.1:4647')).toBeUndefined();
    expect(description.validate(operation('readLeader'), 4647)).toMatch(/must be string/);
  });
});

describe('properties', () => {
  // The law the valid requests rest on: what the generator draws from a schema, the schema accepts.
  const bodies = description.operations.filter((op) => op.body !== undefined);
  it.each(bodies.map((op) => [op.operationId, op] as const))(
    '%s: generated bodies follow the schema',
    (_id, op) => {
      const schema = op.body as Record<string, unknown>;
      const check = readDescription({
        ...description.document,
        paths: {
          '/x': {
            post: { tags: ['mesh'], responses: { '200': { content: { 'application/json': { schema } } } } },
          },
        },
      });
      const [probe] = check.operations;
      fc.assert(
        fc.property(description.arbitrary(schema), (value) => {
          expect(check.validate(probe as Operation, value)).toBeUndefined();
        }),
        { numRuns: 20 },
      );
    },
  );
});

describe('spliceMarkers', () => {
  it('puts raw bytes where a marker was', () => {
    const bytes = spliceMarkers({ a: MARKERS.badUtf8, b: [MARKERS.bigExponent], c: MARKERS.deep });
    const text = bytes.toString('latin1');
    expect(text.startsWith('{"a":"a\xff\xfe')).toBe(true);
    expect(text).toContain('"b":[1e400]');
    expect(text.split('{"a":').length - 1).toBe(NESTING + 1);
  });
});
