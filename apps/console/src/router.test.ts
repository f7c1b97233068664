import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { href, jobHref, parseRoute } from './router.js';

describe('parseRoute', () => {
  it.each([
    ['/ui/', 'jobs'],
    ['/ui', 'jobs'],
    ['/ui/jobs', 'jobs'],
    ['/ui/jobs/', 'jobs'],
    ['/ui/events', 'events'],
    ['/ui/secrets', 'secrets'],
    ['/ui/mesh/', 'mesh'],
    ['/ui/nope', 'not-found'],
    ['/ui/events/x', 'not-found'],
    ['/ui/jobs/a/b', 'not-found'],
    ['/ui/jobs/%E0%A4%A', 'not-found'],
  ])('%s is the %s view', (path, view) => {
    expect(parseRoute(path, '').view).toBe(view);
  });

  it.each(['.', '..'])('carries the job ID %j, which a URL path would drop, in the query', (id) => {
    const url = new URL(jobHref(id, 'ops'), 'http://127.0.0.1:4646');
    expect(url.pathname).toBe('/ui/jobs');
    const route = parseRoute(url.pathname, url.search);
    expect(route).toMatchObject({ view: 'job', jobId: id });
    expect(route.params.get('namespace')).toBe('ops');
  });

  it('reads an empty job= as the jobs list, and a job in the path before one in the query', () => {
    expect(parseRoute('/ui/jobs', '?job=').view).toBe('jobs');
    expect(parseRoute('/ui/jobs/web', '?job=..')).toMatchObject({ view: 'job', jobId: 'web' });
    expect(parseRoute('/ui/events', '?job=web').view).toBe('events');
  });

  it('reads a job ID holding a slash from one encoded segment', () => {
    const route = parseRoute('/ui/jobs/batch%2Fdispatch-1', '?namespace=ops');
    expect(route).toMatchObject({ view: 'job', jobId: 'batch/dispatch-1' });
    expect(route.params.get('namespace')).toBe('ops');
  });
});

describe('properties', () => {
  const jobIds = fc.oneof(
    fc.string({ minLength: 1, unit: 'grapheme' }),
    fc.stringMatching(/^[.%2eE/]{1,4}$/), // dots, encoded dots and slashes: what a URL path rewrites
  );
  test.prop([jobIds, fc.stringMatching(/^[a-zA-Z0-9-]{1,20}$/)])(
    "a job's address leads back to the job and its namespace, whatever its ID holds",
    (id, namespace) => {
      const url = new URL(jobHref(id, namespace), 'http://127.0.0.1:4646');
      const route = parseRoute(url.pathname, url.search);
      expect(route.view).toBe('job');
      expect(route.jobId).toBe(id);
      expect(route.params.get('namespace')).toBe(namespace);
    },
  );

  test.prop([fc.string({ unit: 'grapheme' }), fc.array(fc.string({ minLength: 1 }), { maxLength: 4 })])(
    'a view state in the address comes back as it was (a filter of any text, repeated topics)',
    (filter, topics) => {
      const url = new URL(href('/ui/jobs', { filter, topic: topics }), 'http://127.0.0.1:4646');
      const params = parseRoute(url.pathname, url.search).params;
      expect(params.get('filter') ?? '').toBe(filter);
      expect(params.getAll('topic')).toEqual(topics);
    },
  );
});
