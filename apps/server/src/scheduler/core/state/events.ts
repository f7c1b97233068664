import { EventTopic, EventType } from '@sked/model';

import type { Allocation, Deployment, Evaluation, Job, Node } from '../types.js';
import type { Txn } from './store.js';

/** The event types of each topic this core emits (from the model's constants). */
export type AllocEventType =
  | typeof EventType.AllocationCreated
  | typeof EventType.AllocationUpdated
  | typeof EventType.AllocationUpdateDesiredStatus;
export type JobEventType =
  typeof EventType.JobRegistered | typeof EventType.JobDeregistered | typeof EventType.JobBatchDeregistered;
export type DeploymentEventType =
  | typeof EventType.PlanResult
  | typeof EventType.DeploymentStatusUpdate
  | typeof EventType.DeploymentPromotion
  | typeof EventType.DeploymentAllocHealth;
export type NodeEventType =
  | typeof EventType.NodeRegistration
  | typeof EventType.NodeDeregistration
  | typeof EventType.NodeEligibility
  | typeof EventType.NodeDrain
  | typeof EventType.NodeEvent;

/** An allocation as events carry it: without its job. */
function stripJob(a: Allocation): Record<string, unknown> {
  const { Job: _job, ...rest } = a;
  return rest;
}

/** Stores an allocation and emits its event of `type`. */
export function putAlloc(tx: Txn, type: AllocEventType, a: Allocation): void {
  tx.put('allocs', a);
  tx.emit({
    Topic: EventTopic.Allocation,
    Type: type,
    Key: a.ID,
    Namespace: a.Namespace,
    FilterKeys: [a.JobID, a.EvalID, ...(a.DeploymentID ? [a.DeploymentID] : [])],
    Payload: { Allocation: stripJob(a) },
  });
}

/** Stores an evaluation and emits its EvaluationUpdated event. */
export function putEvalRecord(tx: Txn, e: Evaluation): void {
  tx.put('evals', e);
  tx.emit({
    Topic: EventTopic.Evaluation,
    Type: EventType.EvaluationUpdated,
    Key: e.ID,
    Namespace: e.Namespace,
    FilterKeys: [e.JobID, ...(e.DeploymentID ? [e.DeploymentID] : [])],
    Payload: { Evaluation: e },
  });
}

/** Emits a job event of `type` (the job itself is stored by the caller, or purged). */
export function jobEvent(tx: Txn, type: JobEventType, j: Job): void {
  tx.emit({
    Topic: EventTopic.Job,
    Type: type,
    Key: j.ID,
    Namespace: j.Namespace,
    FilterKeys: null,
    Payload: { Job: j },
  });
}

/** Stores a job as its current version and emits JobRegistered. */
export function putJob(tx: Txn, j: Job): void {
  tx.put('jobs', j);
  jobEvent(tx, EventType.JobRegistered, j);
}

/** Emits a deployment event of `type` without storing the deployment. */
export function deploymentEvent(tx: Txn, type: DeploymentEventType, d: Deployment): void {
  tx.emit({
    Topic: EventTopic.Deployment,
    Type: type,
    Key: d.ID,
    Namespace: d.Namespace,
    FilterKeys: [d.JobID],
    Payload: { Deployment: d },
  });
}

/** Stores a deployment and emits a deployment event of `type`. */
export function putDeployment(tx: Txn, type: DeploymentEventType, d: Deployment): void {
  tx.put('deployments', d);
  deploymentEvent(tx, type, d);
}

/** Emits a node event of `type` (the node is stored, or deleted, by the caller). */
export function nodeEvent(tx: Txn, type: NodeEventType, n: Node): void {
  tx.emit({
    Topic: EventTopic.Node,
    Type: type,
    Key: n.ID,
    Namespace: '',
    FilterKeys: null,
    Payload: { Node: n },
  });
}

/** Stores a node and emits its events, in order. */
export function putNode(tx: Txn, n: Node, ...types: NodeEventType[]): void {
  tx.put('nodes', n);
  for (const t of types) nodeEvent(tx, t, n);
}
