import { beforeAll, describe, expect, it } from 'vitest';
import { jobKey } from '../core/index.js';
import { jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * Issue 22 item 5 and issue 30 item 3: namespace names as the service has them, no control
 * character in any ID, and the NUL-byte cross-namespace read and delete refused.
 */

const tokens = {
  tokens: [
    { name: 'ops', secret: 'ops-secret', management: true },
    {
      name: 'default-only',
      secret: 'default-secret',
      namespaces: { default: ['list-jobs', 'read-job', 'submit-job'] },
    },
  ],
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ acl: true, aclConfig: tokens });
});

const EVIL = 'default\u0000evil';

describe('namespace names and IDs', () => {
  it('refuses to create a job in namespace default\\0evil, by query or by body, and stores nothing', async () => {
    const before = t.index();
    const byBody = await t.request('POST', '/v1/jobs', {
      token: 'ops-secret',
      body: { Job: jobInput('nuljob', { Namespace: EVIL }) },
    });
    expect(byBody.statusCode).toBe(400);
    expect(byBody.body).toContain('Invalid namespace name "default\\u0000evil": must match regex');
    const byQuery = await t.request('POST', `/v1/jobs?namespace=${encodeURIComponent(EVIL)}`, {
      token: 'ops-secret',
      body: { Job: jobInput('nuljob') },
    });
    expect(byQuery.statusCode).toBe(400);
    expect(t.index()).toBe(before);
  });

  it.each(['a.b', 'a_b', 'x'.repeat(129), 'é'])('refuses namespace %j on reads and writes', async (name) => {
    const read = await t.request('GET', `/v1/jobs?namespace=${encodeURIComponent(name)}`, {
      token: 'ops-secret',
    });
    expect(read.statusCode).toBe(400);
    expect(read.body).toBe(
      `Invalid namespace name ${JSON.stringify(name)}: must match regex ^[a-zA-Z0-9-]{1,128}$`,
    );
    const volume = await t.request('PUT', `/v1/volume/csi/v1?namespace=${encodeURIComponent(name)}`, {
      token: 'ops-secret',
      body: { Volumes: [{ ID: 'v1', PluginID: 'p' }] },
    });
    expect(volume.statusCode).toBe(400);
  });

  it('a default-only token cannot read nor delete a job of default\\0evil through evil%00nuljob', async () => {
    // the job cannot be made any more (above); were it there, its key would not be default's either
    const read = await t.request('GET', '/v1/job/evil%00nuljob', { token: 'default-secret' });
    expect(read.statusCode).toBe(400);
    expect(read.body).toBe('Invalid ID "evil\\u0000nuljob": it contains a control character');
    const del = await t.request('DELETE', '/v1/job/evil%00nuljob', { token: 'default-secret' });
    expect(del.statusCode).toBe(400);
    expect(jobKey(EVIL, 'nuljob')).not.toBe(jobKey('default', 'evil\u0000nuljob'));
  });

  it('refuses control characters in job and volume IDs', async () => {
    const job = await t.request('POST', '/v1/jobs', {
      token: 'ops-secret',
      body: { Job: jobInput('a\u0007b') },
    });
    expect(job.statusCode).toBe(400);
    expect(job.body).toContain('contains a control character');
    const volume = await t.request('PUT', '/v1/volume/csi/a%1Bb', {
      token: 'ops-secret',
      body: { Volumes: [{ ID: 'a\u001bb', PluginID: 'p' }] },
    });
    expect(volume.statusCode).toBe(400);
  });
});

describe('host paths (issue 22 item 2)', () => {
  it('refuses DispatchPayload.File = "../../../../tmp/x" at register, with the service message', async () => {
    const before = t.index();
    const res = await t.request('POST', '/v1/jobs', {
      token: 'ops-secret',
      body: {
        Job: jobInput('escape', {
          Type: 'batch',
          ParameterizedJob: { Payload: 'required' },
          TaskGroups: [
            {
              Name: 'g',
              Tasks: [{ Name: 't', Driver: 'mock', DispatchPayload: { File: '../../../../tmp/x' } }],
            },
          ],
        }),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(
      'Task group "g" task "t" dispatch payload validation failed: destination escapes allocation directory ("../../../../tmp/x").',
    );
    expect(t.index()).toBe(before);
  });

  it('refuses a template destination that escapes', async () => {
    const res = await t.request('POST', '/v1/jobs', {
      token: 'ops-secret',
      body: {
        Job: jobInput('tmpl', {
          TaskGroups: [
            { Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Templates: [{ DestPath: '../../../x' }] }] },
          ],
        }),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('template 1 validation failed: destination escapes allocation directory');
  });
});
