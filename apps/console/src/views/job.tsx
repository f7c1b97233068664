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
import { Link } from '../components/link.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { formatNanos, shortId } from '../format.js';
import { href, type Route } from '../router.js';
import { useToken } from '../session.js';
import { needsToken, useWatch } from '../use-watch.js';
import { JobVersions } from './job-versions.js';

function Allocations(props: { allocs: readonly Allocation[] }): preact.JSX.Element {
  if (props.allocs.length === 0) return <p class="empty">No allocations.</p>;
  const sorted = [...props.allocs].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="data" aria-labelledby="allocations-title">
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">Task group</th>
          <th scope="col">Node</th>
          <th scope="col">Desired</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((alloc) => (
          <tr key={alloc.ID}>
            <th scope="row">
              <code title={alloc.ID}>{shortId(alloc.ID)}</code>
            </th>
            <td>{alloc.TaskGroup}</td>
            <td>
              <code title={alloc.NodeID}>{shortId(alloc.NodeID)}</code>
            </td>
            <td>{alloc.DesiredStatus}</td>
            <td>
              <span class={`status status-${alloc.ClientStatus}`}>{alloc.ClientStatus}</span>
            </td>
            <td>{formatNanos(alloc.CreateTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LatestDeployment(props: { deployment: Deployment | null }): preact.JSX.Element {
  const deployment = props.deployment;
  if (deployment === null) return <p class="empty">No deployment.</p>;
  return (
    <div>
      <p>
        <code title={deployment.ID}>{shortId(deployment.ID)}</code> for version {deployment.JobVersion}:{' '}
        <span class={`status status-${deployment.Status}`}>{deployment.Status}</span>{' '}
        {deployment.StatusDescription}
      </p>
      <table class="data">
        <caption class="visually-hidden">Task groups of the deployment</caption>
        <thead>
          <tr>
            <th scope="col">Task group</th>
            <th scope="col">Desired</th>
            <th scope="col">Placed</th>
            <th scope="col">Healthy</th>
            <th scope="col">Unhealthy</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(deployment.TaskGroups).map(([name, group]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{group.DesiredTotal}</td>
              <td>{group.PlacedAllocs}</td>
              <td>{group.HealthyAllocs}</td>
              <td>{group.UnhealthyAllocs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Evaluations(props: { evals: readonly Evaluation[] }): preact.JSX.Element {
  if (props.evals.length === 0) return <p class="empty">No evaluations.</p>;
  const sorted = [...props.evals].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="data" aria-labelledby="evaluations-title">
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">Triggered by</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((evaluation) => (
          <tr key={evaluation.ID}>
            <th scope="row">
              <code title={evaluation.ID}>{shortId(evaluation.ID)}</code>
            </th>
            <td>{evaluation.TriggeredBy}</td>
            <td>{evaluation.Status}</td>
            <td>{formatNanos(evaluation.CreateTime)}</td>
            <td>{evaluation.StatusDescription}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
      <h2 id="allocations-title">Allocations</h2>
      {allocs.data === undefined ? <p class="empty">Loading…</p> : <Allocations allocs={allocs.data} />}
      <h2>Latest deployment</h2>
      {deployment.data === undefined ? (
        <p class="empty">Loading…</p>
      ) : (
        <LatestDeployment deployment={deployment.data} />
      )}
      {job.data === undefined ? null : <JobVersions client={client} job={job.data} />}
      <h2 id="evaluations-title">Evaluations</h2>
      {evals.data === undefined ? <p class="empty">Loading…</p> : <Evaluations evals={evals.data} />}
    </section>
  );
}
