// Public-API type tests: checked by `tsc --noEmit` (the typecheck script), which fails on any
// expectation that does not hold.
import type { ApiResponse } from '@sked/http';
import type { Job, JobListStub } from '@sked/model';
import { expectTypeOf } from 'vitest';

import {
  createClient,
  createSchedulerClient,
  createTransport,
  type ListEndpoint,
  type ReadEndpoint,
  type Result,
  SCHEDULER_DEFAULT_ADDRESS,
  type SchedulerClient,
  type SchedulerClientOptions,
} from '../src/index.js';

const client = createSchedulerClient({ env: false, namespace: 'prod', region: 'west' });
expectTypeOf(client).toEqualTypeOf<SchedulerClient>();
expectTypeOf(createSchedulerClient(createTransport({ env: false }))).toEqualTypeOf<SchedulerClient>();
expectTypeOf(createClient).toEqualTypeOf(createSchedulerClient);
expectTypeOf(SCHEDULER_DEFAULT_ADDRESS).toEqualTypeOf<string>();
expectTypeOf(client.withDefaults({ namespace: 'other' })).toEqualTypeOf<SchedulerClient>();

// Every call resolves { data, meta }.
expectTypeOf(client.jobs.list()).toEqualTypeOf<Promise<Result<JobListStub[]>>>();
expectTypeOf(client.jobs.read('web')).toEqualTypeOf<Promise<Result<Job>>>();
expectTypeOf<Result<Job>>().toEqualTypeOf<ApiResponse<Job>>();
expectTypeOf(client.jobs.list.items()).toEqualTypeOf<AsyncIterable<JobListStub>>();
expectTypeOf(client.jobs.list).toMatchTypeOf<ListEndpoint<never, JobListStub>>();
expectTypeOf(client.jobs.read).toMatchTypeOf<ReadEndpoint<never, Job>>();

// The options accept only what means something for the service.
// @ts-expect-error the environment prefix is the client's own
void createSchedulerClient({ envPrefix: 'OTHER_' });
// @ts-expect-error the default address is the client's own
void createSchedulerClient({ defaultAddress: 'http://x:1' });
// @ts-expect-error a derived client keeps the environment it was created with
void client.withDefaults({ env: false });
expectTypeOf<SchedulerClientOptions>().toHaveProperty('namespace');
