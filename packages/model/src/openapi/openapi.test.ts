import { validate as validateOpenApi, compileErrors } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { validate } from '../validate.js';
import { JobRegisterResponse } from '../job-requests.js';
import { openApiDocument, openApiServices } from './document.js';
import { modelSchemas } from './components.js';

type Operation = {
  operationId: string;
  parameters: { name: string; in: string }[];
  responses: Record<
    string,
    { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }
  >;
  requestBody?: { content: Record<string, { schema: unknown }> };
};

function operations(): [string, string, Operation][] {
  const out: [string, string, Operation][] = [];
  for (const [path, item] of Object.entries(openApiDocument().paths)) {
    for (const [method, op] of Object.entries(item)) out.push([method, path, op as Operation]);
  }
  return out;
}

describe('openApiDocument', () => {
  it('is a valid OpenAPI 3.1 document for @readme/openapi-parser (schema and spec rules)', async () => {
    // the validator mutates what it is given: hand it a copy
    const document = structuredClone(openApiDocument());
    const result = await validateOpenApi(document as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.valid).toBe(true);
  });

  it('fails the validator when an operation is broken (the check can fail)', async () => {
    const document = structuredClone(openApiDocument()) as {
      paths: Record<string, Record<string, { operationId?: string; parameters?: unknown[] }>>;
    };
    const readJob = document.paths['/v1/job/{job_id}']?.['get'];
    if (readJob === undefined) throw new Error('no readJob');
    readJob.parameters = (readJob.parameters ?? []).slice(1); // the job_id path parameter goes
    const result = await validateOpenApi(document as never);
    expect(result.valid).toBe(false);
    expect(compileErrors(result)).toContain('job_id');
  });

  it('describes every endpoint of the three services once, with unique operation ids', () => {
    const ops = operations();
    const ids = ops.map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const expected = openApiServices.flatMap((service) =>
      service.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => `${method} ${endpoint.path}`)),
    );
    expect(ops.map(([method, path]) => `${method} ${path}`).sort()).toEqual(expected.sort());
    // the spec's endpoint counts: jobs 19 routes, allocations 6, volumes 5, events 1; LDAP 11; peering 5
    expect(
      ops
        .filter(([, path]) => path.startsWith('/v1/auth/ldap'))
        .map(([, , op]) => op.operationId.split('_')[0]),
    ).toHaveLength(15);
    expect(
      new Set(ops.filter(([, path]) => path.includes('peering')).map(([m, p]) => `${m} ${p}`)).size,
    ).toBe(5);
  });

  it('states the wire headers: index headers on blocking reads, next token on lists, tokens as security schemes', () => {
    const document = openApiDocument();
    const listJobs = (document.paths['/v1/jobs'] as Record<string, Operation>)['get'];
    expect(Object.keys(listJobs?.responses['200']?.headers ?? {}).sort()).toEqual([
      'X-Svc-Index',
      'X-Svc-KnownLeader',
      'X-Svc-LastContact',
      'X-Svc-NextToken',
    ]);
    expect(listJobs?.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'namespace',
        'index',
        'wait',
        'filter',
        'per_page',
        'next_token',
        'prefix',
        'meta',
      ]),
    );
    const readPeering = (document.paths['/v1/peering/{name}'] as Record<string, Operation>)['get'];
    expect(Object.keys(readPeering?.responses['200']?.headers ?? {})).toContain('X-Mesh-Index');
    const schemes = (document.components['securitySchemes'] ?? {}) as Record<string, { name?: string }>;
    expect(Object.values(schemes).map((s) => s.name)).toEqual(
      expect.arrayContaining(['X-Svc-Token', 'X-Secrets-Token', 'X-Mesh-Token']),
    );
  });

  it('takes every body schema from the model, each model shape stated once under components', () => {
    const document = openApiDocument();
    const schemas = document.components['schemas'] as Record<string, unknown>;
    const model = modelSchemas();
    for (const name of [
      'Job',
      'JobListStub',
      'Allocation',
      'CsiVolume',
      'EventEnvelope',
      'Peering',
      'LdapLoginResponse',
    ]) {
      expect(schemas[name]).toBeDefined();
      expect(model.has(name)).toBe(true);
    }
    // the component is the model's schema with its known parts turned into references
    const text = JSON.stringify(document);
    expect(text).toContain('"#/components/schemas/TaskGroup"');
    const register = (document.paths['/v1/jobs'] as Record<string, Operation>)['post'];
    expect(register?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/JobRegisterRequest',
    });
    // a value valid for the model is valid for the component it became (sample: the register answer)
    expect(
      validate(JobRegisterResponse, {
        EvalID: '',
        EvalCreateIndex: 0,
        JobModifyIndex: 1,
        Warnings: '',
        Index: 1,
        LastContact: 0,
        KnownLeader: true,
      }).ok,
    ).toBe(true);
  });

  it('gives every error answer its service shape: plain text, or {"errors": [...]} on the secrets service', () => {
    const responses = openApiDocument().components['responses'] as Record<
      string,
      { content: Record<string, unknown> }
    >;
    expect(Object.keys(responses['schedulerError404']?.content ?? {})).toEqual(['text/plain']);
    expect(Object.keys(responses['secretsError403']?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(responses['meshError400']?.content ?? {})).toEqual(['text/plain']);
  });

  it('describes exec as a WebSocket upgrade: GET with the handshake headers, 101 with its headers, frames in x-websocket', () => {
    const exec = openApiDocument().paths['/v1/client/allocation/{alloc_id}/exec'] as Record<
      string,
      Operation & { 'x-websocket'?: Record<string, unknown>; description?: string }
    >;
    expect(Object.keys(exec)).toEqual(['get']);
    const op = exec['get'];
    const headers = op?.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers).toEqual(['Connection', 'Upgrade', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version']);
    expect(
      Object.keys(op?.responses ?? {}).filter((code) => code.startsWith('1') || code.startsWith('2')),
    ).toEqual(['101']);
    const switching = op?.responses['101'];
    expect(switching?.content).toBeUndefined();
    expect(Object.keys(switching?.headers ?? {})).toEqual(['Upgrade', 'Connection', 'Sec-WebSocket-Accept']);
    expect(op?.['x-websocket']).toMatchObject({
      clientFrame: { $ref: '#/components/schemas/ExecClientFrame' },
      serverFrame: { $ref: '#/components/schemas/ExecServerFrame' },
      closeCodes: { '1000': expect.any(String), '1008': expect.any(String), '1011': expect.any(String) },
    });
    expect(op?.description).toContain('alloc-node-exec');
    expect(op?.description).toContain('"exited": true');
  });

  it('needs no token for login, the status probes and the description itself; a token everywhere else', () => {
    const open = operations()
      .filter(([, , op]) => (op as { security?: unknown[] }).security?.length === 0)
      .map(([, , op]) => op.operationId)
      .sort();
    expect(open).toEqual(['listPeers', 'loginLdap', 'loginLdap_put', 'readLeader', 'readOpenApi']);
  });

  it('returns a new document each call', () => {
    const a = openApiDocument();
    const b = openApiDocument();
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });
});
