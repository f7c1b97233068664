/**
 * The event stream, live: one line per event (index, topic, type, key, namespace) from
 * `client.events()`, which reads `/v1/event/stream` and reconnects from the last index + 1.
 * Topics are chosen with checkboxes; Pause stops the stream and keeps where it was in the address
 * (`index`), Resume goes on from there, so no event is missed in between, even after a reload.
 */
import { EventTopic, type TypedEvent } from '@sked/scheduler-client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { schedulerClient } from '../clients.js';
import { Problem } from '../components/problem.js';
import { TokenForm } from '../components/token-form.js';
import { href, navigate, type Route } from '../router.js';
import { useToken } from '../session.js';
import { needsToken } from '../use-watch.js';

/** The topics offered (the scheduling service's own; `*` is all of them). */
export const TOPICS = [
  EventTopic.Job,
  EventTopic.Allocation,
  EventTopic.Evaluation,
  EventTopic.Deployment,
  EventTopic.Node,
] as const;

/** Most lines kept on the page. */
const MAX_LINES = 500;

interface Line {
  /** A number of its own (several events share an index). */
  readonly seq: number;
  readonly index: number;
  readonly topic: string;
  readonly type: string;
  readonly key: string;
  readonly namespace: string;
}

let seq = 0;

function lineOf(event: TypedEvent): Line {
  seq += 1;
  return {
    seq,
    index: event.Index,
    topic: event.Topic,
    type: event.Type,
    key: event.Key,
    namespace: event.Namespace,
  };
}

/**
 * The events view.
 * @param props - The route (topics, namespace, and the index to resume from when paused).
 */
export function EventsView(props: { route: Route }): preact.JSX.Element {
  const token = useToken('acl');
  const client = schedulerClient(token);
  const { params } = props.route;
  const chosen = params.getAll('topic').filter((t) => (TOPICS as readonly string[]).includes(t));
  const topics = chosen.length === 0 ? [...TOPICS] : chosen;
  const namespace = params.get('namespace') ?? '*';
  const paused = params.has('index');
  const [lines, setLines] = useState<readonly Line[]>([]);
  const [error, setError] = useState<unknown>(undefined);
  const last = useRef(Number(params.get('index') ?? '0') - 1);
  /** Stops the running stream at once (a new query must not wait for the next render's clean-up). */
  const stop = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (paused) return undefined;
    const controller = new AbortController();
    stop.current = () => controller.abort();
    const pending: Line[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    // lines are shown in batches; the index to resume from is that of the last line shown
    const flush = (): void => {
      timer = undefined;
      if (controller.signal.aborted) return;
      const batch = pending.splice(0);
      const end = batch.at(-1);
      if (end === undefined) return;
      last.current = end.index;
      setLines((old) => [...old, ...batch].slice(-MAX_LINES));
    };
    setError(undefined);
    void (async () => {
      try {
        const stream = client.events({
          index: Math.max(0, last.current + 1),
          topics: topics.length === TOPICS.length ? ['*'] : topics,
          namespace,
          signal: controller.signal,
          maxRetries: 3,
        });
        for await (const event of stream) {
          if (controller.signal.aborted) break;
          pending.push(lineOf(event));
          timer ??= setTimeout(flush, 50);
        }
      } catch (caught) {
        if (!controller.signal.aborted) setError(caught);
      }
    })();
    // events received but not shown yet are dropped: a resume asks for them again
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [client, paused, namespace, topics.join(',')]);

  // a new query stops the running stream at once: its next batch must not land after the lines are
  // cleared or the pause is shown (the effect's clean-up runs only after the next paint)
  const go = (query: { topics: readonly string[]; namespace: string; index?: number }): void => {
    stop.current();
    const all = query.topics.length === TOPICS.length;
    navigate(
      href('/ui/events', {
        topic: all ? [] : query.topics,
        namespace: query.namespace === '*' ? '' : query.namespace,
        index: query.index === undefined ? '' : String(query.index),
      }),
      true,
    );
  };
  const toggle = (topic: string, on: boolean): void => {
    const next = on ? [...topics, topic] : topics.filter((t) => t !== topic);
    if (next.length === 0) return;
    setLines([]);
    last.current = -1;
    go({ topics: TOPICS.filter((t) => next.includes(t)), namespace });
  };

  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Events</h1>
      {needsToken(error) ? <TokenForm kind="acl" refused={token !== undefined} /> : null}
      {error !== undefined && !needsToken(error) ? (
        <Problem error={error} what="The event stream failed" />
      ) : null}
      <div class="toolbar">
        <fieldset class="topics">
          <legend>Topics</legend>
          {TOPICS.map((topic) => (
            <label key={topic}>
              <input
                type="checkbox"
                checked={topics.includes(topic)}
                onChange={(e) => toggle(topic, e.currentTarget.checked)}
              />{' '}
              {topic}
            </label>
          ))}
        </fieldset>
        <button
          type="button"
          onClick={() =>
            paused
              ? go({ topics, namespace })
              : go({ topics, namespace, index: Math.max(0, last.current + 1) })
          }
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
        <p class="hint" role="status">
          {paused ? `Paused; resumes from index ${params.get('index') ?? '0'}.` : 'Live.'}
        </p>
      </div>
      <div class="events" role="log" aria-label="Events" aria-live="off" tabIndex={0}>
        <ol>
          {lines.map((line) => (
            <li key={line.seq}>
              <span class="index">{line.index}</span> <span class="topic">{line.topic}</span>{' '}
              <span class="type">{line.type}</span> <span class="key">{line.key}</span>{' '}
              <span class="ns">{line.namespace}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
