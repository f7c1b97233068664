import type { JobDiff } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { formatJobDiff, updatesText } from './diff-format.js';

describe('formatJobDiff', () => {
  it('marks added, deleted and edited fields and objects as the service CLI does', () => {
    const diff = {
      Type: 'Edited',
      ID: 'web',
      Fields: [{ Type: 'Edited', Name: 'Priority', Old: '50', New: '60', Annotations: null }],
      Objects: null,
      TaskGroups: [
        {
          Type: 'Edited',
          Name: 'web',
          Fields: [{ Type: 'None', Name: 'Count', Old: '2', New: '2', Annotations: null }],
          Objects: null,
          Updates: { 'create/destroy update': 2, ignore: 0 },
          Tasks: [
            {
              Type: 'Edited',
              Name: 'server',
              Annotations: ['forces create/destroy update'],
              Fields: null,
              Objects: [
                {
                  Type: 'Edited',
                  Name: 'Config',
                  Fields: [
                    { Type: 'Added', Name: 'run_for', Old: '', New: '1h', Annotations: null },
                    { Type: 'Deleted', Name: 'exit_code', Old: '1', New: '', Annotations: null },
                  ],
                  Objects: null,
                },
              ],
            },
          ],
        },
      ],
    } satisfies JobDiff;
    expect(formatJobDiff(diff)).toBe(
      [
        '+/- Job: "web"',
        '+/- Priority: "50" => "60"',
        '+/- Task Group: "web" (2 create/destroy update)',
        '  +/- Task: "server" (forces create/destroy update)',
        '    +/- Config {',
        '      + run_for: "1h"',
        '      - exit_code: "1"',
        '    }',
      ].join('\n'),
    );
    expect(formatJobDiff(diff, true)).toContain('  Count: "2"');
  });

  it('orders the update counts and drops zeros', () => {
    expect(updatesText({ ignore: 1, create: 2, stop: 0 })).toBe(' (2 create, 1 ignore)');
    expect(updatesText(null)).toBe('');
  });
});
