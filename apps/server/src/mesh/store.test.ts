import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createFilePeeringStore, MeshStateError } from './file-store.js';
import { createMemoryPeeringStore, type PeeringDraft } from './store.js';

const draft = (name: string, id = `id-${name}`): PeeringDraft => ({
  ID: id,
  Name: name,
  Partition: 'default',
  State: 'INITIAL',
  PeerID: '',
  PeerServerName: '',
  PeerServerAddresses: null,
  Meta: null,
  Remote: { Partition: '', Datacenter: '' },
  DeletedAt: null,
  role: 'acceptor',
  establishmentSecret: 's',
  streamSecret: null,
});

describe('memory store', () => {
  it('keeps CreateIndex across updates of the same ID and orders the list by name', () => {
    const store = createMemoryPeeringStore();
    const b = store.put(draft('b'));
    store.put(draft('a'));
    const updated = store.put({ ...draft('b'), State: 'ACTIVE' });
    expect(updated.CreateIndex).toBe(b.CreateIndex);
    expect(updated.ModifyIndex).toBeGreaterThan(b.ModifyIndex);
    expect(store.list('default').map((p) => p.Name)).toEqual(['a', 'b']);
    expect(store.getById('id-b')?.State).toBe('ACTIVE');
    expect(store.remove('default', 'b')).toBe(true);
    expect(store.remove('default', 'b')).toBe(false);
    expect(store.getById('id-b')).toBeUndefined();
  });

  test.prop([fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c')), { maxLength: 50 })])(
    'the index grows with every write and never moves otherwise',
    (ops) => {
      const store = createMemoryPeeringStore();
      let last = store.index;
      for (const [put, name] of ops) {
        const changed = put ? (store.put(draft(name)), true) : store.remove('default', name);
        expect(store.index > last).toBe(changed);
        last = store.index;
      }
    },
  );
});

describe('file store', () => {
  it('keeps the peerings, the index and the cluster ID across a restart, in a 0600 file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sked-mesh-')), 'mesh.json');
    const first = createFilePeeringStore(file);
    first.put(draft('a'));
    first.put({ ...draft('b'), streamSecret: 'x' });
    const second = createFilePeeringStore(file);
    expect(second.clusterId).toBe(first.clusterId);
    expect(second.index).toBe(first.index);
    expect(second.list('default')).toEqual(first.list('default'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('peerings');
  });

  it('refuses a file that is not JSON or not a mesh state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sked-mesh-'));
    writeFileSync(join(dir, 'bad.json'), '{');
    writeFileSync(join(dir, 'other.json'), '{"tokens": []}');
    expect(() => createFilePeeringStore(join(dir, 'bad.json'))).toThrow(MeshStateError);
    expect(() => createFilePeeringStore(join(dir, 'other.json'))).toThrow(/is not a mesh state/);
    expect(() => createFilePeeringStore(dir)).toThrow(/cannot read the mesh state file/);
  });
});
