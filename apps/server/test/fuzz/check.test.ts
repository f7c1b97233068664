import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openApiDocument } from '@sked/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuzzCase, Role } from './cases.js';
import { checkCase, type CheckedTarget } from './check.js';
import { readDescription, type Operation } from './openapi.js';

// The checks against a fake listener that does each wrong thing on purpose: every law of the
// fuzzer must be able to fail.
type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler = (_request, response) => response.end();
let state = 0;
let port = 0;
const server = createServer((request, response) => handler(request, response));
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const description = readDescription(openApiDocument() as unknown as Record<string, unknown>);
const operation = (id: string): Operation =>
  description.operations.find((op) => op.operationId === id) as Operation;

function target(acl: boolean, alive = true): CheckedTarget {
  return {
    acl,
    ports: { scheduler: port, secrets: port, mesh: port },
    tokenHeaders: () => ({}),
    snapshot: () => Promise.resolve([`state ${state}`]),
    probe: () => Promise.resolve(alive ? undefined : 'probe failed'),
  };
}

function fuzzCase(id: string, role: Role = 'good', method?: string): FuzzCase {
  const op = operation(id);
  return {
    operation: op,
    mutation: 'valid',
    method: method ?? op.method,
    target: op.path.replace('{name}', 'east'),
    headers: {},
    body: op.body === undefined ? undefined : Buffer.from('{"PeerName":"east"}'),
    role,
  };
}

function answer(status: number, body: string, type = 'application/json', change = false): Handler {
  return (request, response) => {
    request.resume();
    request.on('end', () => {
      if (change) state += 1;
      response.writeHead(status, { 'content-type': type }).end(body);
    });
  };
}

describe('checkCase', () => {
  it.each([
    ['a 5xx', answer(502, 'bad gateway', 'text/plain'), 'listPeerings', 'server-error'],
    ['an error without a message', answer(400, '', 'text/plain'), 'listPeerings', 'no-message'],
    [
      'an error in a JSON envelope on a plain-text listener',
      answer(400, '{"error":"x"}'),
      'listPeerings',
      'envelope',
    ],
    ['a 2xx body against its schema', answer(200, '[{"Name":1}]'), 'listPeerings', 'schema'],
    ['a 2xx with another status than documented', answer(201, '[]'), 'listPeerings', 'schema'],
    [
      'a JSON answer with a charset',
      answer(200, '[]', 'application/json; charset=utf-8'),
      'listPeerings',
      'content-type',
    ],
    [
      'a refused write that changed the state',
      answer(400, 'no', 'text/plain', true),
      'generatePeeringToken',
      'state-change',
    ],
  ] as const)('reports %s', async (_name, respond, id, kind) => {
    handler = respond;
    const outcome = await checkCase(description, target(false), fuzzCase(id));
    expect(outcome.problems.map((problem) => problem.kind)).toEqual([kind]);
  });

  it('reports a 2xx write for a token without the capability, with ACLs on only', async () => {
    handler = answer(200, '{"PeeringToken":"x"}');
    const refusedRole = await checkCase(
      description,
      target(true),
      fuzzCase('generatePeeringToken', 'reader'),
    );
    expect(refusedRole.problems.map((problem) => problem.kind)).toEqual(['acl-write']);
    const off = await checkCase(description, target(false), fuzzCase('generatePeeringToken', 'reader'));
    expect(off.problems).toEqual([]);
  });

  it('reports a listener that stopped answering', async () => {
    handler = answer(200, '[]');
    const outcome = await checkCase(description, target(false, false), fuzzCase('listPeerings'));
    expect(outcome.problems.map((problem) => problem.kind)).toEqual(['dead']);
  });

  it('reports nothing for a documented answer, and accepts a refused write that changed nothing', async () => {
    handler = answer(200, '[]');
    expect((await checkCase(description, target(false), fuzzCase('listPeerings'))).problems).toEqual([]);
    handler = answer(400, 'PeerName is required', 'text/plain');
    expect((await checkCase(description, target(false), fuzzCase('generatePeeringToken'))).problems).toEqual(
      [],
    );
  });
});
