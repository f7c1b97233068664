/**
 * A job's page: what it is, its allocations (IDs shortened to 8 characters as the service's CLI
 * shows them), its latest deployment and its evaluations, each kept current by its own blocking
 * query; its versions with what changed between them (./job-versions.tsx); stop with a confirmation.
 */
import type { Allocation, Deployment, Evaluation, Job } from '@sked/model';
import { ApiError } from '@sked/scheduler-client';
import { useState } from 'preact/hooks';
import { schedulerClient } from '../clients.js';
import { ConfirmDialog } from '../components/confirm.js';
import { type Column, DataTable } from '../components/data-table.js';
import { Link } from '../components/link.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { formatNanos, shortId } from '../format.js';
import { href, type Route } from '../router.js';
import { useToken } from '../session.js';
import { needsToken, useWatch } from '../use-watch.js';
import { JobVersions } from './job-versions.js';

/** An ID shortened to 8 characters, the whole ID in its title. */
const ShortId = (props: { id: string }): preact.JSX.Element => (
  <code title={props.id}>{shortId(props.id)}</code>
);

/**
 * The allocations or the evaluations under their heading (`title`, with the id `${kind}-title`):
 * newest first (by `CreateIndex`), each row headed by its short ID; "Loading…" before the first
 * answer, "No `kind`." when there are none.
 */
function NewestFirst<T extends { ID: string; CreateIndex: number }>(props: {
  title: string;
  kind: 'allocations' | 'evaluations';
  rows: readonly T[] | undefined;
  columns: readonly Column<T>[];
}): preact.JSX.Element {
  const titleId = `${props.kind}-title`;
  const { rows } = props;
  return (
    <>
      <h2 id={titleId}>{props.title}</h2>
      {rows === undefined ? (
        <p class="empty">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="empty">No {props.kind}.</p>
      ) : (
        <DataTable
          rows={[...rows].sort((a, b) => b.CreateIndex - a.CreateIndex)}
          rowKey={(row) => row.ID}
          labelledBy={titleId}
          columns={[{ title: 'ID', cell: (row) => <ShortId id={row.ID} /> }, ...props.columns]}
        />
      )}
    </>
  );
}

const allocationColumns: readonly Column<Allocation>[] = [
  { title: 'Task group', cell: (alloc) => alloc.TaskGroup },
  { title: 'Node', cell: (alloc) => <ShortId id={alloc.NodeID} /> },
  { title: 'Desired', cell: (alloc) => alloc.DesiredStatus },
  {
    title: 'Status',
    cell: (alloc) => <span class={`status status-${alloc.ClientStatus}`}>{alloc.ClientStatus}</span>,
  },
  { title: 'Created', cell: (alloc) => formatNanos(alloc.CreateTime) },
];

const evaluationColumns: readonly Column<Evaluation>[] = [
  { title: 'Triggered by', cell: (evaluation) => evaluation.TriggeredBy },
  { title: 'Status', cell: (evaluation) => evaluation.Status },
  { title: 'Created', cell: (evaluation) => formatNanos(evaluation.CreateTime) },
  { title: 'Description', cell: (evaluation) => evaluation.StatusDescription },
];

type DeploymentGroup = [name: string, group: Deployment['TaskGroups'][string]];

function LatestDeployment(props: { deployment: Deployment | null }): preact.JSX.Element {
  const deployment = props.deployment;
  if (deployment === null) return <p class="empty">No deployment.</p>;
  return (
    <div>
      <p>
        <ShortId id={deployment.ID} /> for version {deployment.JobVersion}:{' '}
        <span class={`status status-${deployment.Status}`}>{deployment.Status}</span>{' '}
        {deployment.StatusDescription}
      </p>
      <DataTable<DeploymentGroup>
        rows={Object.entries(deployment.TaskGroups)}
        rowKey={([name]) => name}
        caption="Task groups of the deployment"
        columns={[
          { title: 'Task group', cell: ([name]) => name },
          { title: 'Desired', cell: ([, group]) => group.DesiredTotal },
          { title: 'Placed', cell: ([, group]) => group.PlacedAllocs },
          { title: 'Healthy', cell: ([, group]) => group.HealthyAllocs },
          { title: 'Unhealthy', cell: ([, group]) => group.UnhealthyAllocs },
        ]}
      />
    </div>
  );
}

function Summary(props: { job: Job; onStop: () => void }): preact.JSX.Element {
  const { job } = props;
  return (
    <div class="summary">
      <dl>
        <dt>Type</dt>
        <dd>{job.Type}</dd>
        <dt>Status</dt>
        <dd>
          <span class={`status status-${job.Status}`}>{job.Status}</span>
        </dd>
        <dt>Priority</dt>
        <dd>{job.Priority}</dd>
        <dt>Version</dt>
        <dd>{job.Version}</dd>
        <dt>Datacenters</dt>
        <dd>{(job.Datacenters ?? []).join(', ')}</dd>
        <dt>Namespace</dt>
        <dd>{job.Namespace}</dd>
      </dl>
      <button type="button" class="danger" disabled={job.Stop} onClick={props.onStop}>
        {job.Stop ? 'Stopped' : 'Stop job'}
      </button>
    </div>
  );
}

/**
 * The job view.
 * @param props - The route (job ID, namespace in its query).
 */
export function JobView(props: { route: Route }): preact.JSX.Element {
  const token = useToken('acl');
  const client = schedulerClient(token);
  const id = props.route.jobId ?? '';
  const namespace = props.route.params.get('namespace') ?? 'default';
  const deps = [client, id, namespace];
  const job = useWatch((signal) => client.jobs.read.watch(id, { namespace, signal }), deps);
  const allocs = useWatch((signal) => client.jobs.allocations.watch(id, { namespace, signal }), deps);
  const evals = useWatch((signal) => client.jobs.evaluations.watch(id, { namespace, signal }), deps);
  const deployment = useWatch(
    (signal) => client.jobs.latestDeployment.watch(id, { namespace, signal }),
    deps,
  );
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ error?: unknown; done?: string }>({});

  const stop = async (): Promise<void> => {
    setConfirming(false);
    try {
      const { data } = await client.jobs.stop(id, { namespace });
      setOutcome({ done: `Stop requested: evaluation ${shortId(data.EvalID)}.` });
    } catch (error) {
      setOutcome({ error });
    }
  };

  const missing = ApiError.is(job.error) && job.error.status === 404;
  return (
    <section aria-labelledby="job-title">
      <p class="crumbs">
        <Link href={href('/ui/jobs', { namespace: namespace === 'default' ? '' : namespace })}>Jobs</Link>
      </p>
      <h1 id="job-title">{id}</h1>
      {needsToken(job.error) ? <TokenForm kind="acl" refused={token !== undefined} /> : null}
      {missing ? (
        <p class="problem">
          No job {JSON.stringify(id)} in namespace {namespace}.
        </p>
      ) : null}
      {job.error !== undefined && !missing && !needsToken(job.error) ? (
        <Problem error={job.error} what="Reading the job failed" />
      ) : null}
      {outcome.done !== undefined ? <p role="status">{outcome.done}</p> : null}
      {outcome.error !== undefined ? <Problem error={outcome.error} what="Stopping the job failed" /> : null}
      {job.data === undefined ? null : <Summary job={job.data} onStop={() => setConfirming(true)} />}
      {confirming ? (
        <ConfirmDialog
          title={`Stop job ${id}?`}
          confirmLabel="Stop job"
          onConfirm={() => void stop()}
          onCancel={() => setConfirming(false)}
        >
          <p>Its allocations are stopped. The job stays readable and can be started again by reverting.</p>
        </ConfirmDialog>
      ) : null}
      <NewestFirst title="Allocations" kind="allocations" rows={allocs.data} columns={allocationColumns} />
      <h2>Latest deployment</h2>
      {deployment.data === undefined ? (
        <p class="empty">Loading…</p>
      ) : (
        <LatestDeployment deployment={deployment.data} />
      )}
      {job.data === undefined ? null : <JobVersions client={client} job={job.data} />}
      <NewestFirst title="Evaluations" kind="evaluations" rows={evals.data} columns={evaluationColumns} />
    </section>
  );
}
