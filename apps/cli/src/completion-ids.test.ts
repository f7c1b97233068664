import { describe, expect, it } from 'vitest';

import { commandWords, wantedIds } from './completion-ids.js';

/** The words of `sked complete --` for a command line, the last being the word completed. */
const words = (line: string): string[] => line.split(' ');

describe('what a completion request asks the servers for', () => {
  it('job and allocation IDs where a command names one', () => {
    expect(wantedIds(words('job status '))).toEqual({ kind: 'jobs' });
    expect(wantedIds(words('job revert we'))).toEqual({ kind: 'jobs' });
    expect(wantedIds(words('alloc exec --job '))).toEqual({ kind: 'jobs' });
    expect(wantedIds(words('alloc status '))).toEqual({ kind: 'allocs' });
    expect(wantedIds(words('alloc signal -s SIGHUP 4a'))).toEqual({ kind: 'allocs' });
    // past the ID (a task, a command to run): nothing to fetch
    expect(wantedIds(words('alloc restart 4a2b web'))).toBeUndefined();
  });

  it("a job's versions after its ID, and its current version for --check-version", () => {
    expect(wantedIds(words('job revert web '))).toEqual({ kind: 'versions', job: 'web' });
    expect(wantedIds(words('--namespace prod job revert web 1'))).toEqual({ kind: 'versions', job: 'web' });
    expect(wantedIds(words('job history -p web --version '))).toEqual({ kind: 'versions', job: 'web' });
    expect(wantedIds(words('job inspect web --version=1'))).toEqual({ kind: 'versions', job: 'web' });
    expect(wantedIds(words('job revert web 0 --check-version '))).toEqual({
      kind: 'current-version',
      job: 'web',
    });
    // no job named yet: nothing to list versions of
    expect(wantedIds(words('job inspect --version '))).toBeUndefined();
    // past the version: nothing
    expect(wantedIds(words('job revert web 0 '))).toBeUndefined();
  });

  it('LDAP group and user names where a command names one, not where key=value pairs go', () => {
    expect(wantedIds(words('ldap group read '))).toEqual({ kind: 'ldap-groups' });
    expect(wantedIds(words('ldap --mount corp user delete al'))).toEqual({ kind: 'ldap-users' });
    expect(wantedIds(words('ldap user write '))).toEqual({ kind: 'ldap-users' });
    expect(wantedIds(words('ldap user write alice '))).toBeUndefined();
    expect(wantedIds(words('ldap group list '))).toBeUndefined();
    expect(wantedIds(words('ldap config write '))).toBeUndefined();
  });

  it('peering names for read and delete, not for the names a new peering gets', () => {
    expect(wantedIds(words('peering read '))).toEqual({ kind: 'peerings' });
    expect(wantedIds(words('--address http://a:8500 peering delete d'))).toEqual({ kind: 'peerings' });
    expect(wantedIds(words('peering generate-token '))).toBeUndefined();
    expect(wantedIds(words('peering establish '))).toBeUndefined();
    expect(wantedIds(words('peering read dc2 '))).toBeUndefined();
  });

  it('leaves flags and their values out of the command words', () => {
    expect(commandWords(words('--token t ldap --mount m group read x'))).toEqual([
      'ldap',
      'group',
      'read',
      'x',
    ]);
  });
});
