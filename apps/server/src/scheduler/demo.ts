import { JobType, type JobInput, type TaskInput } from '@sked/model';
import type { SchedulerCluster } from './routes/common.js';

const task = (name: string, config: Record<string, unknown>): TaskInput => ({
  Name: name,
  Driver: 'mock',
  Config: config,
  Resources: { CPU: 100, MemoryMB: 64 },
});

/** The sample jobs `--demo` registers: two of each type, plus a periodic and a parameterized job. */
export const DEMO_JOBS: readonly JobInput[] = [
  {
    ID: 'web',
    Name: 'web',
    Type: JobType.Service,
    Datacenters: ['*'],
    Meta: { team: 'frontend' },
    Update: { MaxParallel: 1, MinHealthyTime: 1_000_000_000, HealthyDeadline: 60_000_000_000 },
    TaskGroups: [{ Name: 'web', Count: 2, Tasks: [task('server', { run_for: '24h' })] }],
  },
  {
    ID: 'cache',
    Name: 'cache',
    Type: JobType.Service,
    Datacenters: ['*'],
    Meta: { team: 'platform' },
    TaskGroups: [{ Name: 'cache', Count: 1, Tasks: [task('redis', { run_for: '24h' })] }],
  },
  {
    ID: 'report',
    Name: 'report',
    Type: JobType.Batch,
    Datacenters: ['*'],
    TaskGroups: [{ Name: 'report', Count: 1, Tasks: [task('build', { run_for: '5s', exit_code: 0 })] }],
  },
  {
    ID: 'flaky-import',
    Name: 'flaky-import',
    Type: JobType.Batch,
    Datacenters: ['*'],
    TaskGroups: [
      {
        Name: 'import',
        Count: 1,
        RestartPolicy: { Attempts: 1, Interval: 600_000_000_000, Delay: 1_000_000_000, Mode: 'fail' },
        Tasks: [task('import', { run_for: '2s', exit_code: 1 })],
      },
    ],
  },
  {
    ID: 'node-cleanup',
    Name: 'node-cleanup',
    Type: JobType.SysBatch,
    Datacenters: ['*'],
    TaskGroups: [{ Name: 'cleanup', Count: 1, Tasks: [task('sweep', { run_for: '3s' })] }],
  },
  {
    ID: 'nightly-backup',
    Name: 'nightly-backup',
    Type: JobType.Batch,
    Datacenters: ['*'],
    Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron', ProhibitOverlap: true },
    TaskGroups: [{ Name: 'backup', Count: 1, Tasks: [task('dump', { run_for: '10s' })] }],
  },
  {
    ID: 'transcode',
    Name: 'transcode',
    Type: JobType.Batch,
    Datacenters: ['*'],
    ParameterizedJob: { Payload: 'optional', MetaRequired: ['input'], MetaOptional: ['profile'] },
    TaskGroups: [{ Name: 'transcode', Count: 1, Tasks: [task('ffmpeg', { run_for: '3s' })] }],
  },
];

/**
 * Registers the demo jobs through the cluster (as `POST /v1/jobs` would).
 * @param cluster - The cluster.
 * @returns The IDs registered.
 */
export function loadDemo(cluster: SchedulerCluster): string[] {
  const ids: string[] = [];
  for (const job of DEMO_JOBS) {
    cluster.registerJob({
      job: { ...job, Namespace: 'default' },
      enforceIndex: false,
      jobModifyIndex: 0,
      evalPriority: 0,
      policyOverride: false,
      preserveCounts: false,
    });
    ids.push(job.ID);
  }
  return ids;
}
