/**
 * A job's versions, newest first, each with what changed from the version before it (computed in
 * the page with `@sked/model`'s `diffJobs`, the diff the service's versions endpoint answers), and
 * revert to an older version with a confirmation. Read again whenever the job changes.
 */
import { diffJobs, type FieldDiff, type Job, type JobDiff, type ObjectDiff } from '@sked/model';
import type { SchedulerClient } from '@sked/scheduler-client';
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm.js';
import { Problem } from '../components/problem.js';
import { formatNanos, shortId } from '../format.js';
import { useLoad } from '../use-watch.js';

/** One changed field as a line: `+ Name: new`, `- Name: old`, `~ Name: old → new`. */
function FieldLine(props: { field: FieldDiff }): preact.JSX.Element {
  const { field } = props;
  const sign = field.Type === 'Added' ? '+' : field.Type === 'Deleted' ? '-' : '~';
  const value =
    field.Type === 'Added' ? field.New : field.Type === 'Deleted' ? field.Old : `${field.Old} → ${field.New}`;
  return (
    <li class={`diff-${field.Type.toLowerCase()}`}>
      <span aria-hidden="true">{sign} </span>
      <span class="visually-hidden">{field.Type}: </span>
      {field.Name}: {value}
    </li>
  );
}

/** A block of changes (fields, nested objects, groups, tasks), as nested lists. */
function Changes(props: {
  name: string;
  type: string;
  fields: readonly FieldDiff[] | null;
  objects: readonly ObjectDiff[] | null;
  children?: preact.ComponentChildren;
}): preact.JSX.Element | null {
  const fields = (props.fields ?? []).filter((f) => f.Type !== 'None');
  const objects = (props.objects ?? []).filter((o) => o.Type !== 'None');
  if (fields.length === 0 && objects.length === 0 && props.children === undefined) return null;
  return (
    <li>
      {props.name} ({props.type})
      <ul>
        {fields.map((field) => (
          <FieldLine key={field.Name} field={field} />
        ))}
        {objects.map((object, index) => (
          <Changes
            key={`${object.Name}#${index}`}
            name={object.Name}
            type={object.Type}
            fields={object.Fields}
            objects={object.Objects}
          />
        ))}
        {props.children}
      </ul>
    </li>
  );
}

function DiffView(props: { diff: JobDiff }): preact.JSX.Element {
  const { diff } = props;
  if (diff.Type === 'None') return <p class="empty">No change to the version before.</p>;
  const groups = (diff.TaskGroups ?? []).filter((g) => g.Type !== 'None');
  return (
    <ul class="diff">
      <Changes name="Job" type={diff.Type} fields={diff.Fields} objects={diff.Objects}>
        {groups.map((group) => (
          <Changes
            key={group.Name}
            name={`Group ${group.Name}`}
            type={group.Type}
            fields={group.Fields}
            objects={group.Objects}
          >
            {(group.Tasks ?? [])
              .filter((t) => t.Type !== 'None')
              .map((task) => (
                <Changes
                  key={task.Name}
                  name={`Task ${task.Name}`}
                  type={task.Type}
                  fields={task.Fields}
                  objects={task.Objects}
                />
              ))}
          </Changes>
        ))}
      </Changes>
    </ul>
  );
}

/**
 * The versions section of a job's page.
 * @param props - The client and the job as last read.
 */
export function JobVersions(props: { client: SchedulerClient; job: Job }): preact.JSX.Element {
  const { client, job } = props;
  const namespace = job.Namespace;
  const versions = useLoad(
    (signal) => client.jobs.versions(job.ID, { namespace, signal }),
    [client, job.ID, namespace, job.Version, job.JobModifyIndex, job.Stable],
  );
  const [reverting, setReverting] = useState<number | undefined>(undefined);
  const [outcome, setOutcome] = useState<{ error?: unknown; done?: string }>({});

  const revert = async (version: number): Promise<void> => {
    setReverting(undefined);
    try {
      const { data } = await client.jobs.revert(job.ID, version, { namespace });
      setOutcome({ done: `Reverted to version ${version}: evaluation ${shortId(data.EvalID)}.` });
    } catch (error) {
      setOutcome({ error });
    }
  };

  const list = versions.data?.Versions ?? [];
  return (
    <div>
      <h2>Versions</h2>
      {versions.error !== undefined ? (
        <Problem error={versions.error} what="Reading the versions failed" />
      ) : null}
      {outcome.done !== undefined ? <p role="status">{outcome.done}</p> : null}
      {outcome.error !== undefined ? <Problem error={outcome.error} what="Reverting failed" /> : null}
      {list.length === 0 ? <p class="empty">{versions.loading ? 'Loading…' : 'No versions.'}</p> : null}
      <ol class="versions" reversed>
        {list.map((version, index) => {
          const before = list[index + 1];
          return (
            <li key={version.Version}>
              <div class="version-head">
                <strong>Version {version.Version}</strong>
                {version.Stable ? ' (stable)' : ''} · submitted {formatNanos(version.SubmitTime)}
                {version.Version === job.Version ? (
                  ' · current'
                ) : (
                  <button type="button" onClick={() => setReverting(version.Version)}>
                    Revert to version {version.Version}
                  </button>
                )}
              </div>
              {before === undefined ? (
                <p class="empty">The first version.</p>
              ) : (
                <details open={index === 0}>
                  <summary>Changes from version {before.Version}</summary>
                  <DiffView diff={diffJobs(before, version)} />
                </details>
              )}
            </li>
          );
        })}
      </ol>
      {reverting === undefined ? null : (
        <ConfirmDialog
          title={`Revert job ${job.ID} to version ${reverting}?`}
          confirmLabel={`Revert to version ${reverting}`}
          onConfirm={() => void revert(reverting)}
          onCancel={() => setReverting(undefined)}
        >
          <p>
            Version {reverting} is registered again as a new version, and the job is scheduled to match it.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
