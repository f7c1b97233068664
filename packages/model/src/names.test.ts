import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { canonicalizeJob } from './canonicalize.js';
import type { JobInput, SchedulerJob } from './job.js';
import { jobProblems } from './job-problems.js';
import { hasControlCharacter, namespaceNameProblem, pathEscapesTaskDir } from './names.js';

/** Issue 22 items 2 and 5: host paths stay in the task directory; names as the service has them. */

const job = (input: Record<string, unknown>): SchedulerJob => canonicalizeJob(input as unknown as JobInput);
const withTask = (task: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  job({ ID: 'p', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', ...task }] }], ...extra });

describe('host paths of a job', () => {
  it('refuses a dispatch payload file that climbs out of the task directory', () => {
    expect(
      jobProblems(
        withTask({ DispatchPayload: { File: '../../../../tmp/x' } }, { Type: 'batch', ParameterizedJob: {} }),
      ),
    ).toEqual([
      {
        path: '/TaskGroups/0/Tasks/0/DispatchPayload/File',
        message:
          'Task group "g" task "t" dispatch payload validation failed: destination escapes allocation directory ("../../../../tmp/x").',
      },
    ]);
  });

  it('refuses template, artifact and volume mount destinations that escape', () => {
    const problems = jobProblems(
      withTask({
        Templates: [{ DestPath: 'local/ok.txt' }, { DestPath: '../../etc/passwd' }],
        Artifacts: [{ RelativeDest: 'local/../..' }],
        VolumeMounts: [{ Volume: 'v', Destination: '../../x' }],
      }),
    );
    expect(problems.map((p) => p.path)).toEqual([
      '/TaskGroups/0/Tasks/0/Templates/1/DestPath',
      '/TaskGroups/0/Tasks/0/Artifacts/0/RelativeDest',
      '/TaskGroups/0/Tasks/0/VolumeMounts/0/Destination',
    ]);
    expect(problems[0]?.message).toBe(
      'Task group "g" task "t" template 2 validation failed: destination escapes allocation directory ("../../etc/passwd").',
    );
  });

  it('accepts paths that stay inside', () => {
    const inside = withTask({
      DispatchPayload: { File: '../secrets/input.json' },
      Templates: [{ DestPath: 'local/a/../b.txt' }],
      Artifacts: [{ RelativeDest: 'local/' }],
      VolumeMounts: [{ Volume: 'v', Destination: '/srv/data' }],
    });
    expect(jobProblems(inside)).toEqual([]);
  });

  it('pathEscapesTaskDir: climbing above the base by more than its depth escapes', () => {
    expect(pathEscapesTaskDir('local', '../x')).toBe(false);
    expect(pathEscapesTaskDir('local', '../../x')).toBe(true);
    expect(pathEscapesTaskDir('', 'a/../../x')).toBe(true);
    expect(pathEscapesTaskDir('', '/../x')).toBe(true);
    expect(pathEscapesTaskDir('', '/etc/x')).toBe(false);
    expect(pathEscapesTaskDir('local', 'a\u0000b')).toBe(true);
  });

  test.prop([fc.array(fc.constantFrom('a', '..', '.', '', 'b'), { maxLength: 8 })])(
    'a path escapes exactly when some prefix climbs above the task directory',
    (parts) => {
      const path = parts.join('/');
      let depth = path.startsWith('/') ? 0 : 1; // inside local/, or at the task's root when absolute
      let escaped = false;
      for (const part of parts) {
        if (part === '..') depth -= 1;
        else if (part !== '.' && part !== '') depth += 1;
        if (depth < 0) escaped = true;
      }
      expect(pathEscapesTaskDir('local', path)).toBe(escaped);
    },
  );
});

describe('names', () => {
  it('validates namespace names as the service does', () => {
    expect(namespaceNameProblem('team-a')).toBeUndefined();
    expect(namespaceNameProblem('A1-b2')).toBeUndefined();
    for (const bad of ['a.b', 'default\u0000evil', '', 'x'.repeat(129), 'a_b', 'a b', '*'])
      expect(namespaceNameProblem(bad)).toBe(
        `Invalid namespace name ${JSON.stringify(bad)}: must match regex ^[a-zA-Z0-9-]{1,128}$.`,
      );
  });

  it('refuses a job in an invalid namespace, and control characters in IDs and names', () => {
    expect(jobProblems(withTask({}, { Namespace: 'default\u0000evil' })).map((p) => p.path)).toEqual([
      '/Namespace',
    ]);
    expect(jobProblems(withTask({}, { ID: 'a\u001bb' }))).toEqual([
      { path: '/ID', message: 'Job ID "a\\u001bb" contains a control character.' },
    ]);
    const names = job({
      ID: 'p',
      TaskGroups: [{ Name: 'g\u0007', Tasks: [{ Name: 't\u0085', Driver: 'mock' }] }],
    });
    expect(jobProblems(names).map((p) => p.message)).toEqual([
      'Task group "g\u0007" name contains a control character.',
      'Task group "g\u0007" task "t\u0085" name contains a control character.',
    ]);
  });

  test.prop([fc.string()])('hasControlCharacter agrees with \\p{Cc}', (value) => {
    expect(hasControlCharacter(value)).toBe(/\p{Cc}/u.test(value));
  });
});
