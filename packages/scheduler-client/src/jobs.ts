/**
 * The job endpoints (`client.jobs`): their options and shape (`jobs/options.ts`, `jobs/api.ts`),
 * the reads (`jobs/reads.ts`), the writes that submit a job (`jobs/writes.ts`) and the actions on a
 * stored job (`jobs/actions.ts`).
 */
import type { Transport } from '@sked/http';

import { createJobActions } from './jobs/actions.js';
import type { JobsApi } from './jobs/api.js';
import { createJobReads } from './jobs/reads.js';
import { createJobWrites } from './jobs/writes.js';

/**
 * Builds the job endpoints on a transport.
 * @internal
 */
export function createJobsApi(transport: Transport): JobsApi {
  return { ...createJobReads(transport), ...createJobWrites(transport), ...createJobActions(transport) };
}
