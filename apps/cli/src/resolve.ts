import { ApiError } from '@sked/http';
import type { Allocation, Job } from '@sked/model';
import type { SchedulerClient } from '@sked/scheduler-client';

import { CliError } from './errors.js';
import { short, table } from './output.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job as the service answers it: an object with a string `ID`; anything else is refused in one line. */
function usableJob(data: unknown, id: string): Job {
  if (typeof data === 'object' && data !== null && typeof (data as { ID?: unknown }).ID === 'string') {
    return data as Job;
  }
  const text = JSON.stringify(data) ?? 'nothing';
  throw new CliError(
    `The answer to the read of job "${id}" is not a job (an object with an ID): ${text.length > 60 ? `${text.slice(0, 60)}...` : text}.`,
  );
}

/**
 * Reads a job by ID, or by a unique prefix of its ID when no job has that exact ID (as the
 * service's CLI does). Several matches are an error listing them.
 */
export async function resolveJob(
  client: SchedulerClient,
  id: string,
  options: { namespace?: string; signal?: AbortSignal } = {},
): Promise<Job> {
  try {
    return usableJob((await client.jobs.read(id, options)).data, id);
  } catch (error) {
    if (!ApiError.is(error) || error.status !== 404) throw error;
  }
  const { data: matches } = await client.jobs.list({ ...options, prefix: id });
  const [only, ...rest] = matches;
  if (only === undefined)
    throw new CliError(`No job with ID or prefix "${id}".`, {
      hint: '`sked job status` lists the jobs; check --namespace.',
    });
  if (rest.length > 0)
    throw new CliError(
      `Prefix "${id}" matched ${matches.length} jobs:\n\n${table(
        ['ID', 'Namespace', 'Type', 'Status'],
        matches.map((j) => [j.ID, j.Namespace, j.Type, j.Status]),
      )}`,
      { hint: 'Give more of the ID.' },
    );
  return usableJob(
    (await client.jobs.read(only.ID, { ...options, namespace: only.Namespace })).data,
    only.ID,
  );
}

/**
 * The full ID of an allocation from a full ID or a prefix (the short 8-character form that
 * tables show): the service only accepts full IDs in paths. Several matches are an error.
 */
export async function resolveAllocId(
  client: SchedulerClient,
  id: string,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  if (UUID.test(id)) return id;
  const hex = id.toLowerCase();
  if (!/^[0-9a-f-]+$/.test(hex) || hex.length > 36)
    throw new CliError(`"${id}" is not an allocation ID or a prefix of one (hex digits and dashes).`, {
      hint: '`sked alloc status` lists allocations; `sked alloc exec --job JOB` takes a job ID instead.',
    });
  // The service decodes a prefix to bytes: ask for an even number of digits, then narrow.
  const digits = hex.replace(/-/g, '').length;
  let even = hex;
  if (digits % 2 === 1) even = hex.slice(0, -1).replace(/-$/, '');
  const { data } = await client.allocations.list({
    ...options,
    namespace: '*',
    prefix: even,
    taskStates: false,
  });
  const matches = data.filter((a: Allocation) => a.ID.toLowerCase().startsWith(hex));
  const [only, ...rest] = matches;
  if (only === undefined)
    throw new CliError(`No allocation with ID or prefix "${id}".`, {
      hint: '`sked alloc status` lists allocations.',
    });
  if (rest.length > 0)
    throw new CliError(
      `Prefix "${id}" matched ${matches.length} allocations:\n\n${table(
        ['ID', 'Job ID', 'Task Group', 'Status'],
        matches.map((a) => [short(a.ID), a.JobID, a.TaskGroup, a.ClientStatus]),
      )}`,
      { hint: 'Give more of the ID.' },
    );
  return only.ID;
}
