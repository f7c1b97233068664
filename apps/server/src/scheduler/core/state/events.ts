import { EventTopic, EventType, jsonEqual, NodeStatus, ownValue } from '@sked/model';

import type {
  Allocation,
  ClusterEventKinds,
  ClusterEventTopic,
  Deployment,
  Evaluation,
  Job,
  Node,
  PendingEventOf,
} from '../types.js';
import { jobKey } from './keys.js';
import type { TableName, TableTypes } from './tables.js';

/**
 * What a write is, where the change alone does not say which event it is: a job deregistration
 * (one, or a batch of them) names the stopped or purged jobs `JobDeregistered` or
 * `JobBatchDeregistered`. Every other write is a plain `write`: its events follow from its changes.
 */
export type WriteKind = 'write' | 'job-deregister' | 'job-batch-deregister';

/**
 * One put or delete of a write, in the order the write made it: for `LoggedChange` (every table) a
 * union discriminated by `table`.
 */
export type LoggedChange<K extends TableName = TableName> = K extends TableName
  ? {
      readonly table: K;
      /** The value the write saw before this change (its own earlier put, or the committed one). */
      readonly before: TableTypes[K] | undefined;
      /** The value put (`undefined`: deleted). */
      readonly after: TableTypes[K] | undefined;
    }
  : never;

/**
 * The change of one item of `table`. The one cast of the change log: TypeScript cannot relate a
 * change of a generic table to the union {@link LoggedChange}, which the events narrow by `table`.
 */
export function changeOf<K extends TableName>(
  table: K,
  before: TableTypes[K] | undefined,
  after: TableTypes[K] | undefined,
): LoggedChange {
  return { table, before, after } as LoggedChange;
}

/** An event before the commit gives it its index: a union discriminated by `Topic`. */
export type PendingEvent = { [T in ClusterEventTopic]: PendingEventOf<T> }[ClusterEventTopic];

/** The event types a topic derives (the model's constants). */
type TypeOf<T extends ClusterEventTopic> = ClusterEventKinds[T]['type'];

/** The fields of an allocation that only link it to what followed (reschedules, follow-ups): no event. */
const ALLOC_LINKS: ReadonlySet<string> = new Set([
  'NextAllocation',
  'FollowupEvalID',
  'DesiredTransition',
  'ModifyIndex',
]);
const ALLOC_CLIENT = ['ClientStatus', 'ClientDescription', 'TaskStates', 'DeploymentStatus'] as const;
const ALLOC_DESIRED = ['DesiredStatus', 'DesiredDescription', 'DesiredTransition'] as const;

/** The top-level fields whose value (by identity) differs. */
function changedKeys(before: object, after: object): Set<string> {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const out = new Set<string>();
  for (const k of Object.keys(a)) if (a[k] !== ownValue(b, k)) out.add(k);
  for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.add(k);
  return out;
}

/**
 * An allocation's event: created; its client's or deployment health's change (`AllocationUpdated`);
 * a change of what the server wants of it (`AllocationUpdateDesiredStatus`); any other change of
 * the allocation itself (`AllocationUpdated`). Links to its successor or follow-up evaluation, and
 * desired transitions alone, are bookkeeping without an event.
 */
function allocType(before: Allocation | undefined, after: Allocation): TypeOf<'Allocation'> | undefined {
  if (before === undefined) return EventType.AllocationCreated;
  const changed = changedKeys(before, after);
  if ([...changed].every((k) => ALLOC_LINKS.has(k))) return undefined;
  if (ALLOC_CLIENT.some((k) => changed.has(k))) return EventType.AllocationUpdated;
  if (ALLOC_DESIRED.some((k) => changed.has(k))) return EventType.AllocationUpdateDesiredStatus;
  return EventType.AllocationUpdated;
}

/**
 * A deployment's events: a group's healthy count rising (`DeploymentAllocHealth`), canaries
 * promoted (`DeploymentPromotion`), its status changing (`DeploymentStatusUpdate`), in that order;
 * a new deployment, or one the plan otherwise changed, is the plan's result (`PlanResult`).
 */
function deploymentTypes(before: Deployment | undefined, after: Deployment): TypeOf<'Deployment'>[] {
  if (before === after) return [];
  if (before === undefined) return [EventType.PlanResult];
  const types: TypeOf<'Deployment'>[] = [];
  const groups = Object.entries(after.TaskGroups);
  if (groups.some(([g, s]) => s.HealthyAllocs > (ownValue(before.TaskGroups, g)?.HealthyAllocs ?? 0)))
    types.push(EventType.DeploymentAllocHealth);
  if (groups.some(([g, s]) => s.Promoted && ownValue(before.TaskGroups, g)?.Promoted !== true))
    types.push(EventType.DeploymentPromotion);
  if (after.Status !== before.Status) types.push(EventType.DeploymentStatusUpdate);
  return types.length > 0 ? types : [EventType.PlanResult];
}

/**
 * A job's event: a deregistration write names the job it stops (`Stop` set, or already set and
 * put again) or purges; every other put of a job is `JobRegistered`; other deletions (garbage
 * collection) have no event.
 */
function jobType(
  kind: WriteKind,
  before: Job | undefined,
  after: Job | undefined,
): TypeOf<'Job'> | undefined {
  const deregistered =
    kind === 'job-batch-deregister' ? EventType.JobBatchDeregistered : EventType.JobDeregistered;
  if (after === undefined) return kind === 'write' ? undefined : deregistered;
  if (kind !== 'write' && after.Stop && (before === after || before?.Stop !== true)) return deregistered;
  return EventType.JobRegistered;
}

/**
 * A node's events: registered, deregistered, drained (or its drain ended), or its eligibility
 * changed; `NodeEvent` besides when its event history grew.
 */
function nodeTypes(before: Node | undefined, after: Node | undefined): TypeOf<'Node'>[] {
  if (before === undefined) return after === undefined ? [] : [EventType.NodeRegistration];
  if (after === undefined) return [EventType.NodeDeregistration];
  const history = after.Events !== before.Events;
  const drain = after.Drain !== before.Drain || !jsonEqual(after.DrainStrategy, before.DrainStrategy);
  const types: TypeOf<'Node'>[] = [];
  if (drain) types.push(EventType.NodeDrain);
  else if (after.SchedulingEligibility !== before.SchedulingEligibility)
    types.push(EventType.NodeEligibility);
  else if (history) types.push(EventType.NodeDrain); // a drain write that changed nothing but the history
  if (history) types.push(EventType.NodeEvent);
  return types;
}

/** How a topic's events carry their item: key (the item's ID), namespace, filter keys and payload. */
interface TopicOf<T extends ClusterEventTopic, I extends { ID: string }> {
  readonly topic: T;
  readonly namespace: (item: I) => string;
  readonly filterKeys: (item: I) => string[] | null;
  /** The payload: the item wrapped in the topic's key (`{ Allocation: ... }`). */
  readonly payload: (item: I) => ClusterEventKinds[T]['payload'];
}

const ifSet = (id: string): string[] => (id ? [id] : []);

const ALLOCATION: TopicOf<'Allocation', Allocation> = {
  topic: EventTopic.Allocation,
  namespace: (a) => a.Namespace,
  filterKeys: (a) => [a.JobID, a.EvalID, ...ifSet(a.DeploymentID)],
  // an allocation as events carry it: without its job
  payload: ({ Job: _job, ...rest }) => ({ Allocation: rest }),
};
const EVALUATION: TopicOf<'Evaluation', Evaluation> = {
  topic: EventTopic.Evaluation,
  namespace: (e) => e.Namespace,
  filterKeys: (e) => [e.JobID, ...ifSet(e.DeploymentID)],
  payload: (e) => ({ Evaluation: e }),
};
const JOB: TopicOf<'Job', Job> = {
  topic: EventTopic.Job,
  namespace: (j) => j.Namespace,
  filterKeys: () => null,
  payload: (j) => ({ Job: j }),
};
const DEPLOYMENT: TopicOf<'Deployment', Deployment> = {
  topic: EventTopic.Deployment,
  namespace: (d) => d.Namespace,
  filterKeys: (d) => [d.JobID],
  payload: (d) => ({ Deployment: d }),
};
const NODE: TopicOf<'Node', Node> = {
  topic: EventTopic.Node,
  namespace: () => '',
  filterKeys: () => null,
  payload: (n) => ({ Node: n }),
};

/** One event of `type` about `item`, as its topic carries it. */
function eventOf<T extends ClusterEventTopic, I extends { ID: string }>(
  topic: TopicOf<T, I>,
  type: TypeOf<T>,
  item: I,
): PendingEventOf<T> {
  return {
    Topic: topic.topic,
    Type: type,
    Key: item.ID,
    Namespace: topic.namespace(item),
    FilterKeys: topic.filterKeys(item),
    Payload: topic.payload(item),
  };
}

/** The events of one change (none for the tables that have no topic). */
function eventsOfChange(kind: WriteKind, c: LoggedChange, index: number, out: PendingEvent[]): void {
  switch (c.table) {
    case 'allocs': {
      const { before, after } = c;
      const type = after && allocType(before, after);
      if (after && type) out.push(eventOf(ALLOCATION, type, after));
      return;
    }
    case 'evals': {
      const { after } = c;
      if (after) out.push(eventOf(EVALUATION, EventType.EvaluationUpdated, after));
      return;
    }
    case 'jobs': {
      const { before, after } = c;
      const type = jobType(kind, before, after);
      const job = after ?? before;
      if (type && job) out.push(eventOf(JOB, type, job));
      return;
    }
    case 'deployments': {
      const { before, after } = c;
      if (after)
        for (const type of deploymentTypes(before, after)) out.push(eventOf(DEPLOYMENT, type, after));
      return;
    }
    case 'nodes': {
      const { before, after } = c;
      // a deregistered node is reported down, as of the write that removed it
      const node = after ?? (before && { ...before, Status: NodeStatus.Down, ModifyIndex: index });
      if (node) for (const type of nodeTypes(before, after)) out.push(eventOf(NODE, type, node));
      return;
    }
    default:
      return;
  }
}

/**
 * The changes of `log` with every job's changes merged into its first one (the write's first
 * `before`, its last `after`): a write that puts a job twice (a registration, then the status its
 * allocations and evaluations give it) has one event about it, showing what reads show after the
 * commit, never an intermediate state (a re-registered stopped job is not `dead` with `Stop: false`).
 */
function mergedJobChanges(log: readonly LoggedChange[]): LoggedChange[] {
  const first = new Map<string, number>();
  const out: LoggedChange[] = [];
  for (const c of log) {
    if (c.table !== 'jobs') {
      out.push(c);
      continue;
    }
    const item = c.after ?? c.before;
    const key = item === undefined ? undefined : jobKey(item.Namespace, item.ID);
    const at = key === undefined ? undefined : first.get(key);
    if (key === undefined || at === undefined) {
      if (key !== undefined) first.set(key, out.length);
      out.push(c);
    } else {
      const earlier = out[at] as LoggedChange<'jobs'>;
      out[at] = changeOf('jobs', earlier.before, c.after);
    }
  }
  return out;
}

/**
 * The events of a write, derived from its changes in the order it made them: the one place events
 * come from, so a write cannot forget one (see each topic's rule above). A job's changes in one
 * write are one change (see {@link mergedJobChanges}).
 * @param kind - What the write is (see {@link WriteKind}).
 * @param log - The write's puts and deletes, in order.
 * @param index - The index the write commits at.
 */
export function deriveEvents(kind: WriteKind, log: readonly LoggedChange[], index: number): PendingEvent[] {
  const out: PendingEvent[] = [];
  for (const c of mergedJobChanges(log)) eventsOfChange(kind, c, index, out);
  return out;
}
