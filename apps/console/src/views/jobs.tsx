/**
 * The jobs: a table of the jobs of a namespace (or of every namespace), kept current by a
 * blocking query on `/v1/jobs` (`client.jobs.list.watch`), filtered on the server by the filter box.
 * The namespace and the filter are in the address.
 */
import type { JobListStub } from '@sked/model';
import { useMemo, useState } from 'preact/hooks';
import { schedulerClient } from '../clients.js';
import { type Column, DataTable } from '../components/data-table.js';
import { FilterBox } from '../components/filter-box.js';
import { checkFilter } from '../filter-state.js';
import { Link } from '../components/link.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { allocationSummary } from '../format.js';
import { href, jobHref, navigate, type Route } from '../router.js';
import { useToken } from '../session.js';
import { needsToken, useWatch } from '../use-watch.js';

/** The namespace selector: every namespace seen (a blocking query over `namespace=*`), and all. */
export function NamespaceSelect(props: {
  namespace: string;
  known: readonly string[];
  onChange: (namespace: string) => void;
}): preact.JSX.Element {
  const names = [...new Set(['default', ...props.known, props.namespace].filter((n) => n !== '*'))].sort();
  return (
    <div class="field">
      <label for="namespace">Namespace</label>
      <select id="namespace" value={props.namespace} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="*">All namespaces</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

function JobsTable(props: {
  jobs: readonly JobListStub[];
  all: boolean;
  filtered: boolean;
}): preact.JSX.Element {
  if (props.jobs.length === 0) {
    return <p class="empty">{props.filtered ? 'No job matches the filter.' : 'No jobs.'}</p>;
  }
  const id: Column<JobListStub> = {
    title: 'ID',
    cell: (job) => <Link href={jobHref(job.ID, job.Namespace)}>{job.ID}</Link>,
  };
  const namespace: Column<JobListStub> = { title: 'Namespace', cell: (job) => job.Namespace };
  return (
    <DataTable
      rows={props.jobs}
      rowKey={(job) => `${job.Namespace}\0${job.ID}`}
      caption="Jobs"
      columns={[
        id,
        ...(props.all ? [namespace] : []),
        { title: 'Type', cell: (job) => job.Type },
        { title: 'Priority', cell: (job) => job.Priority },
        { title: 'Status', cell: (job) => <span class={`status status-${job.Status}`}>{job.Status}</span> },
        { title: 'Allocations', cell: (job) => allocationSummary(job.JobSummary) },
      ]}
    />
  );
}

/**
 * The jobs view.
 * @param props - The route (namespace and filter in its query).
 */
export function JobsView(props: { route: Route }): preact.JSX.Element {
  const token = useToken('acl');
  const client = schedulerClient(token);
  const namespace = props.route.params.get('namespace') ?? 'default';
  const initial = props.route.params.get('filter') ?? '';
  // the filter applied: the one in the address when it is valid, then each valid one typed
  const [filter, setFilter] = useState<string | undefined>(() =>
    checkFilter(initial).ok ? initial.trim() : undefined,
  );
  const jobs = useWatch(
    filter === undefined
      ? undefined
      : (signal) =>
          client.jobs.list.watch({ namespace, meta: true, signal, ...(filter === '' ? {} : { filter }) }),
    [client, namespace, filter],
  );
  const everywhere = useWatch((signal) => client.jobs.list.watch({ namespace: '*', signal }), [client]);
  const known = useMemo(
    () => [...new Set((everywhere.data ?? []).map((job) => job.Namespace))],
    [everywhere.data],
  );
  const go = (query: { namespace: string; filter: string }): void =>
    navigate(
      href('/ui/jobs', {
        namespace: query.namespace === 'default' ? '' : query.namespace,
        filter: query.filter,
      }),
      true,
    );
  const current = { namespace, filter: props.route.params.get('filter') ?? '' };
  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      {needsToken(jobs.error) ? <TokenForm kind="acl" refused={token !== undefined} /> : null}
      <div class="toolbar">
        <NamespaceSelect
          namespace={namespace}
          known={known}
          onChange={(ns) => go({ ...current, namespace: ns })}
        />
        <FilterBox
          initial={initial}
          samples={jobs.data ?? []}
          onText={(text) => go({ ...current, filter: text })}
          onApply={setFilter}
        />
      </div>
      {jobs.error !== undefined && !needsToken(jobs.error) ? (
        <Problem error={jobs.error} what="Listing the jobs failed" />
      ) : null}
      {jobs.data === undefined ? (
        <p class="empty" aria-live="polite">
          {filter === undefined
            ? 'Fix the filter to list the jobs.'
            : jobs.error === undefined
              ? 'Loading…'
              : ''}
        </p>
      ) : (
        <JobsTable
          jobs={jobs.data}
          all={namespace === '*'}
          filtered={filter !== undefined && filter !== ''}
        />
      )}
    </section>
  );
}
