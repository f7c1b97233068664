import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  AclConfigError,
  NAMESPACE_CAPABILITIES,
  createAcl,
  loadAclFile,
  parseAclConfig,
  secretFromHeaders,
} from './index.js';

const sample = {
  tokens: [
    { name: 'ops', secret: 's-ops', management: true },
    {
      name: 'ci',
      secret: 's-ci',
      namespaces: { default: ['list-jobs', 'read-job', 'submit-job'], '*': ['read-job'] },
      node: 'read',
    },
    { name: 'prod', secret: 's-prod', namespaces: { 'prod-*': ['read-job'], 'prod-secret': ['deny'] } },
  ],
};

describe('parseAclConfig', () => {
  it('accepts the documented shape', () => {
    const config = parseAclConfig(sample);
    expect(config.tokens.map((t) => t.name)).toEqual(['ops', 'ci', 'prod']);
    expect(config.tokens[1]?.node).toBe('read');
    expect(config.tokens[0]?.management).toBe(true);
  });

  it.each([
    [null, '(root): expected an object but got null'],
    [[], '(root): expected an object but got an array of 0 items'],
    [{}, 'tokens: is required but missing'],
    [{ tokens: {} }, 'tokens: expected an array but got an object'],
    [{ tokens: [], extra: 1 }, 'extra: is not a known key; known keys: tokens'],
    [{ tokens: [1] }, 'tokens[0]: expected an object but got the number 1'],
    [{ tokens: [{ secret: 'x' }] }, 'tokens[0].name: is required but missing'],
    [{ tokens: [{ name: '', secret: 'x' }] }, 'tokens[0].name: must not be empty'],
    [{ tokens: [{ name: 'a' }] }, 'tokens[0].secret: must be a non-empty string'],
    [
      { tokens: [{ name: 'a', secret: 'x', managment: true }] },
      'tokens[0].managment: is not a known key; known keys: name, secret, management, namespaces, node, peering',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', management: 'yes' }] },
      'tokens[0].management: expected a boolean but got the string "yes"',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', node: 'admin' }] },
      'tokens[0].node: expected "read" or "write" but got the string "admin"',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', peering: 'admin' }] },
      'tokens[0].peering: expected "read", "write" or an object but got the string "admin"',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', peering: { 'dc-*': 'all' } }] },
      'tokens[0].peering["dc-*"]: expected "read" or "write" but got the string "all"',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', peering: { '': 'read' } }] },
      'tokens[0] ("a").peering has an empty peering name',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', namespaces: [] }] },
      'tokens[0].namespaces: expected an object but got an array of 0 items',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', namespaces: { default: 'read-job' } }] },
      'tokens[0].namespaces.default: expected an array but got the string "read-job"',
    ],
    [
      { tokens: [{ name: 'a', secret: 'x', namespaces: { '': ['read-job'] } }] },
      'tokens[0] ("a").namespaces has an empty namespace name',
    ],
    [
      {
        tokens: [
          { name: 'a', secret: 1 },
          { name: 2, secret: 'y' },
        ],
      },
      'tokens[0].secret: must be a non-empty string; tokens[1].name: expected a string but got the number 2',
    ],
    [
      {
        tokens: [
          { name: 'a', secret: 'x' },
          { name: 'a', secret: 'y' },
        ],
      },
      'tokens[1] ("a"): the name is used by another token',
    ],
    [
      {
        tokens: [
          { name: 'a', secret: 'x' },
          { name: 'b', secret: 'x' },
        ],
      },
      'tokens[1] ("b"): the secret is used by another token',
    ],
  ])('rejects %j', (value, message) => {
    expect(() => parseAclConfig(value)).toThrow(message);
  });

  it('rejects an unknown capability and names it', () => {
    const act = (): unknown =>
      parseAclConfig({ tokens: [{ name: 'a', secret: 'x', namespaces: { default: ['read-jobs'] } }] });
    expect(act).toThrow(AclConfigError);
    expect(act).toThrow(
      /^tokens\[0\]\.namespaces\.default\[0\]: expected one of "deny", "list-jobs", .* but got the string "read-jobs"$/,
    );
  });

  test.prop([fc.anything()])('throws nothing but AclConfigError for any value', (value) => {
    let thrown: unknown;
    try {
      parseAclConfig(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown === undefined || AclConfigError.is(thrown)).toBe(true);
  });

  it('never quotes a secret in a message', () => {
    const secret = 'super-secret-value';
    const act = (): unknown =>
      parseAclConfig({
        tokens: [
          { name: 'a', secret },
          { name: 'b', secret },
        ],
      });
    expect(act).toThrow(AclConfigError);
    expect(act).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
  });
});

describe('loadAclFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sked-acl-'));

  it('reads a valid file', () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(sample));
    expect(loadAclFile(file).tokens).toHaveLength(3);
  });

  it('reports a file that is not JSON without quoting its content', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"tokens": [{"name": "a", "secret": "hunter2"');
    expect(() => loadAclFile(file)).toThrow(
      `invalid ACL token file ${JSON.stringify(file)}: the file is not valid JSON`,
    );
    expect(() => loadAclFile(file)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('reports a missing file', () => {
    const file = join(dir, 'missing.json');
    expect(() => loadAclFile(file)).toThrow(
      `invalid ACL token file ${JSON.stringify(file)}: cannot read the file (ENOENT)`,
    );
  });
});

describe('createAcl', () => {
  const acl = createAcl(parseAclConfig(sample));

  it('allows everything when off', () => {
    const off = createAcl(undefined);
    expect(off.enabled).toBe(false);
    expect(off.resolve(undefined)?.allowNamespace('x', 'submit-job')).toBe(true);
  });

  it('resolves secrets to principals, never a missing or unknown one', () => {
    expect(acl.enabled).toBe(true);
    expect(acl.managementName).toBe('ops');
    expect(acl.resolve('s-ci')?.name).toBe('ci');
    expect(acl.resolve('nope')).toBeUndefined();
    expect(acl.resolve(undefined)).toBeUndefined();
    expect(acl.resolve('')).toBeUndefined();
  });

  it('applies exact namespaces before globs', () => {
    const ci = acl.resolve('s-ci')!;
    expect(ci.allowNamespace('default', 'submit-job')).toBe(true);
    expect(ci.allowNamespace('other', 'read-job')).toBe(true);
    expect(ci.allowNamespace('other', 'submit-job')).toBe(false);
    expect(ci.allowNamespace('*', 'list-jobs')).toBe(true);
    expect(ci.allowNamespace('*', 'alloc-lifecycle')).toBe(false);
    expect(ci.allowNode('read')).toBe(true);
    expect(ci.allowNode('write')).toBe(false);
  });

  it('uses the most specific glob and honours deny', () => {
    const prod = acl.resolve('s-prod')!;
    expect(prod.allowNamespace('prod-api', 'read-job')).toBe(true);
    expect(prod.allowNamespace('prod-secret', 'read-job')).toBe(false);
    expect(prod.allowNamespace('dev', 'read-job')).toBe(false);
    expect(prod.allowNode('read')).toBe(false);
  });

  it('lets management do everything', () => {
    const ops = acl.resolve('s-ops')!;
    for (const cap of NAMESPACE_CAPABILITIES) expect(ops.allowNamespace('any', cap)).toBe(true);
    expect(ops.allowNode('write')).toBe(true);
  });
});

describe('peering access', () => {
  const peering = createAcl(
    parseAclConfig({
      tokens: [
        { name: 'r', secret: 's-r', peering: 'read' },
        { name: 'w', secret: 's-w', peering: 'write' },
        { name: 'g', secret: 's-g', peering: { 'dc2-*': 'read', 'dc2-east': 'write' } },
        { name: 'none', secret: 's-none' },
      ],
    }),
  );

  it('grants read with read, read and write with write, nothing without', () => {
    expect(peering.resolve('s-r')?.allowPeering('x', 'read')).toBe(true);
    expect(peering.resolve('s-r')?.allowPeering('x', 'write')).toBe(false);
    expect(peering.resolve('s-w')?.allowPeering('x', 'write')).toBe(true);
    expect(peering.resolve('s-w')?.allowPeering('x', 'read')).toBe(true);
    expect(peering.resolve('s-none')?.allowPeering('*', 'read')).toBe(false);
    expect(createAcl(undefined).resolve(undefined)?.allowPeering('x', 'write')).toBe(true);
  });

  it('applies per-name rules, exact names first', () => {
    const g = peering.resolve('s-g')!;
    expect(g.allowPeering('dc2-west', 'read')).toBe(true);
    expect(g.allowPeering('dc2-west', 'write')).toBe(false);
    expect(g.allowPeering('dc2-east', 'write')).toBe(true);
    expect(g.allowPeering('dc3', 'read')).toBe(false);
    expect(g.allowPeering('*', 'read')).toBe(true);
  });
});

describe('secretFromHeaders', () => {
  it("reads another service's token header when asked", () => {
    expect(secretFromHeaders({ 'x-mesh-token': 'm' }, 'x-mesh-token')).toBe('m');
    expect(secretFromHeaders({ 'x-svc-token': 'm' }, 'x-mesh-token')).toBeUndefined();
  });

  it.each([
    [{ 'x-svc-token': 'abc' }, 'abc'],
    [{ authorization: 'Bearer abc' }, 'abc'],
    [{ authorization: 'bearer   abc ' }, 'abc'],
    [{ authorization: 'Basic abc' }, undefined],
    [{ 'x-svc-token': '', authorization: 'Bearer b' }, 'b'],
    [{ 'x-svc-token': 'a', authorization: 'Bearer b' }, 'a'],
    [{}, undefined],
  ])('%j -> %s', (headers, secret) => {
    expect(secretFromHeaders(headers)).toBe(secret);
  });
});

describe('names that are Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'])(
    'a namespace and a peering named %j in a token file grant what they say',
    (name) => {
      // Arrange: parsed JSON keeps "__proto__" an own key, as a token file read from disk does
      const json = `{"tokens":[{"name":"t","secret":"s-t","namespaces":{${JSON.stringify(name)}:["submit-job"]},"peering":{${JSON.stringify(name)}:"write"}}]}`;
      // Act
      const principal = createAcl(parseAclConfig(JSON.parse(json))).resolve('s-t')!;
      // Assert
      expect(principal.allowNamespace(name, 'submit-job')).toBe(true);
      expect(principal.allowNamespace('other', 'read-job')).toBe(false);
      expect(principal.allowPeering(name, 'write')).toBe(true);
      expect(principal.allowPeering('other', 'read')).toBe(false);
    },
  );
});
