import type { Evaluation } from './types.js';

/** What identifies a new evaluation; every other field of {@link newEvaluation}'s result has its default. */
export interface NewEvaluation extends Partial<Evaluation> {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex: number;
  /** Raft index of the creating write; also the ModifyIndex unless one is given. */
  CreateIndex: number;
  /** Unix nanoseconds; also the ModifyTime unless one is given. */
  CreateTime: number;
}

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
    Status: 'pending',
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
