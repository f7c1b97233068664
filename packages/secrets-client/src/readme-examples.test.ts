// The README's examples, generated into test/readme.generated.ts (typechecked with the package) and
// run here against sked-server and a throwaway OpenLDAP, so they stay true.
import { readFileSync, writeFileSync } from 'node:fs';
import { startServer, type RunningServer } from '@sked/server';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiError, InvalidRequestError } from './index.js';
import { generateReadmeModule } from '../test/readme-generate.js';
import { quickExample, walkthrough } from '../test/readme.generated.js';

const readmePath = new URL('../README.md', import.meta.url);
const generatedPath = new URL('../test/readme.generated.ts', import.meta.url);

let slapd: Slapd;
let server: RunningServer;
beforeAll(async () => {
  slapd = await startSlapd();
  server = await startServer({ schedulerPort: 0, secretsPort: 0, nodes: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await slapd?.stop();
});

describe('README', () => {
  it('test/readme.generated.ts is the README as it is', () => {
    const expected = generateReadmeModule(readFileSync(readmePath, 'utf8'));
    if (process.env['SKED_UPDATE_README'] === '1') writeFileSync(generatedPath, expected);
    expect(readFileSync(generatedPath, 'utf8')).toBe(expected);
  });

  it('the walk-through does what its comments say', async () => {
    const context = {
      address: server.secrets.url,
      rootToken: server.secrets.rootToken,
      directory: { url: slapd.url, ca: slapd.certificates.ca },
    };
    const r = await walkthrough(context);
    expect(r.config.bindpass).toBe('');
    expect(r.config.token_ttl).toBe(3600);
    expect(r.groups).toEqual(['admins']);
    expect(r.alice).toEqual({ policies: ['audit'], groups: 'oncall' });
    expect(ApiError.is(r.nobody) && r.nobody.status).toBe(404);
    expect(r.auth.policies).toEqual(['admin', 'audit', 'default']);
    expect(r.auth.lease_duration).toBe(3600);
    expect(r.lookup.display_name).toBe('ldap-alice');
    expect(r.lookup.ttl).toBeLessThanOrEqual(3600);
    expect(ApiError.is(r.refused) && r.refused.status === 400 && r.refused.message).toBe(
      'ldap operation failed: failed to bind as user',
    );
    expect(ApiError.is(r.forbidden) && r.forbidden.status).toBe(403);
    expect(InvalidRequestError.is(r.invalid) && r.invalid.parameter).toBe('config.starttls');
    expect(r.left).toEqual([]);

    // the quick example, with the address from the environment as it says
    const saved = process.env['SKED_SECRETS_ADDR'];
    process.env['SKED_SECRETS_ADDR'] = server.secrets.url;
    try {
      const q = await quickExample(context);
      expect(q.lookup.meta).toEqual({ username: 'alice' });
      expect(q.lookup.policies).toEqual(q.auth.policies);
    } finally {
      if (saved === undefined) delete process.env['SKED_SECRETS_ADDR'];
      else process.env['SKED_SECRETS_ADDR'] = saved;
    }
  });
});
