import { EvalStatus } from '@sked/model';
import type { Evaluation } from '../types.js';

/** What identifies a new evaluation; every other field of {@link newEvaluation}'s result has its default. */
export type NewEvaluation = Pick<
  Evaluation,
  | 'ID'
  | 'Namespace'
  | 'Priority'
  | 'Type'
  | 'TriggeredBy'
  | 'JobID'
  | 'JobModifyIndex'
  | 'CreateIndex'
  | 'CreateTime'
> &
  Partial<Evaluation>;

/**
 * A complete pending evaluation: the given fields over the defaults (no node, no deployment, no wait, no
 * linked evaluations, no failures, ModifyIndex/ModifyTime equal to CreateIndex/CreateTime).
 * @param init - Identity, trigger and creation of the evaluation, plus any field to override.
 * @returns A new evaluation record.
 */
export function newEvaluation(init: NewEvaluation): Evaluation {
  return {
    NodeID: '',
    NodeModifyIndex: 0,
    DeploymentID: '',
    Status: EvalStatus.Pending,
    StatusDescription: '',
    Wait: 0,
    WaitUntil: null,
    NextEval: '',
    PreviousEval: '',
    BlockedEval: '',
    RelatedEvals: null,
    FailedTGAllocs: null,
    ClassEligibility: null,
    EscapedComputedClass: false,
    AnnotatePlan: false,
    QueuedAllocations: null,
    LeaderACL: '',
    SnapshotIndex: 0,
    ModifyIndex: init.CreateIndex,
    ModifyTime: init.CreateTime,
    ...init,
  };
}

/** What a new evaluation takes from its job. */
export type EvalJob = Pick<Evaluation, 'Namespace' | 'Type' | 'Priority' | 'JobModifyIndex'> & { ID: string };

/**
 * The fields every new evaluation of a job takes from the job and the write.
 * @param job - The job evaluated.
 * @param id - The new evaluation's ID.
 * @param index - The index of the write creating it.
 * @param nowNs - Creation time (ns).
 */
export function evalIdentity(
  job: EvalJob,
  id: string,
  index: number,
  nowNs: number,
): Pick<
  Evaluation,
  'ID' | 'Namespace' | 'Priority' | 'Type' | 'JobID' | 'JobModifyIndex' | 'CreateIndex' | 'CreateTime'
> {
  return {
    ID: id,
    Namespace: job.Namespace,
    Priority: job.Priority,
    Type: job.Type,
    JobID: job.ID,
    JobModifyIndex: job.JobModifyIndex,
    CreateIndex: index,
    CreateTime: nowNs,
  };
}
