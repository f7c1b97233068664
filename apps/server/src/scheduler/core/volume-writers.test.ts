// Access modes hold within one evaluation: a single-writer volume gets at most one write claim.
import type { JobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import type { VolumeRegistration } from './api.js';
import { jobKey } from './state/store.js';
import { serviceJob, testCluster } from './test/helpers.js';

const volume = (AccessMode: NonNullable<VolumeRegistration['AccessMode']>): VolumeRegistration => ({
  ID: 'data',
  Name: 'data',
  PluginID: 'ebs',
  AccessMode,
  AttachmentMode: 'file-system',
});
const withVolume = (count: number, ReadOnly = false): JobInput =>
  serviceJob('db', { group: { Count: count, Volumes: { data: { Type: 'csi', Source: 'data', ReadOnly } } } });

describe('single-writer volumes within one evaluation', () => {
  it.each(['single-node-writer', 'multi-node-single-writer'] as const)(
    '%s: a Count 3 job gets one write claim; the other placements fail with the service reason',
    async (mode) => {
      const t = testCluster();
      t.cluster.registerVolume({ namespace: 'default', volumes: [volume(mode)] });
      const r = t.cluster.registerJob({ job: withVolume(3) });
      t.run(500);
      const claims = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))?.Claims ?? {});
      expect(claims.filter((c) => c.Mode === 'write')).toHaveLength(1);
      const live = t.cluster.store.ofJob('allocs', 'default', 'db').filter((a) => a.DesiredStatus === 'run');
      expect(live).toHaveLength(1);
      const failed = t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['web'];
      expect(failed?.ConstraintFiltered).toMatchObject({
        'CSI volume data has exhausted its available writer claims': expect.any(Number) as number,
      });
      await t.cluster.close();
    },
  );

  it('read-only mounts are not write claims: all 3 are placed', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [volume('single-node-writer')] });
    t.cluster.registerJob({ job: withVolume(3, true) });
    t.run(500);
    const claims = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))?.Claims ?? {});
    expect(claims.map((c) => c.Mode)).toEqual(['read', 'read', 'read']);
    await t.cluster.close();
  });
});
