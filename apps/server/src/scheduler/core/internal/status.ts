import { AllocClientStatus, AllocDesiredStatus } from '@sked/model';
import type { Allocation, Job } from '../types.js';

/** Whether the client has finished with an allocation. */
export function clientTerminal(a: Allocation): boolean {
  return (
    a.ClientStatus === AllocClientStatus.Complete ||
    a.ClientStatus === AllocClientStatus.Failed ||
    a.ClientStatus === AllocClientStatus.Lost
  );
}

/** Whether an allocation is neither stopped nor finished. */
export function isLive(a: Allocation): boolean {
  return a.DesiredStatus === AllocDesiredStatus.Run && !clientTerminal(a);
}

/** Whether a job is a periodic or parameterized parent (launches children, runs nothing itself). */
export function isParent(j: Job): boolean {
  return (j.Periodic !== null || j.ParameterizedJob !== null) && !j.Dispatched;
}
