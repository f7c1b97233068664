import { ConfigError } from '@sked/http';
import { describe, expect, it } from 'vitest';

import { recorder } from '../test/fake-server.js';
import { createMeshClient, MESH_DEFAULT_ADDRESS } from './index.js';

describe('withDefaults', () => {
  it('derives a client with another token and partition and leaves the original unchanged', async () => {
    const { fetch, seen } = recorder(() => ({ body: [] }));
    const client = createMeshClient({ fetch, env: false, token: 'one', partition: 'a' });
    const derived = client.withDefaults({ token: 'two', partition: 'b' });
    await derived.peerings.list();
    await client.peerings.list();
    expect(seen[0]?.url.href).toBe(`${MESH_DEFAULT_ADDRESS}/v1/peerings?partition=b`);
    expect(seen[0]?.headers.get('x-mesh-token')).toBe('two');
    expect(seen[1]?.url.href).toBe(`${MESH_DEFAULT_ADDRESS}/v1/peerings?partition=a`);
    expect(seen[1]?.headers.get('x-mesh-token')).toBe('one');
    expect(derived.partition).toBe('b');
    expect(client.withDefaults({ timeout: 5 }).partition).toBe('a');
  });

  it('refuses a bad partition with a ConfigError', () => {
    expect(() => createMeshClient({ env: false }).withDefaults({ partition: 'a b' })).toThrow(ConfigError);
  });
});
