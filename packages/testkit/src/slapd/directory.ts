/**
 * The entries every throwaway OpenLDAP starts with: people, a service account, posix groups and
 * groupOfNames groups (the `memberOf` overlay fills `memberOf` on their members).
 */

/** Base DN of the test directory. */
export const SLAPD_BASE_DN = 'dc=sked,dc=test';
/** DN of the directory's administrator (the database's `rootdn`). */
export const SLAPD_ROOT_DN = `cn=admin,${SLAPD_BASE_DN}`;
/** Password of {@link SLAPD_ROOT_DN}. */
export const SLAPD_ROOT_PASSWORD = 'admin-secret';
/** Domain of the `userPrincipalName` values (`alice@sked.test`). */
export const SLAPD_UPN_DOMAIN = 'sked.test';

/** One person of the test directory. */
export interface SlapdUser {
  /** Login name: the `uid` attribute. */
  readonly uid: string;
  /** The `cn` attribute (the first RDN of the entry's DN). */
  readonly cn: string;
  /** The `sn` attribute (two people share `Twin`, for the "several users" case). */
  readonly sn: string;
  /** The password (`userPassword`, stored in clear: a throwaway directory). */
  readonly password: string;
  /** The entry's DN: `cn=<cn>,ou=people,dc=sked,dc=test`. */
  readonly dn: string;
  /** `userPrincipalName`: `<uid>@sked.test`. */
  readonly upn: string;
}

/** One group of the test directory. */
export interface SlapdGroup {
  /** The `cn` of the group. */
  readonly cn: string;
  /** The group's DN. */
  readonly dn: string;
  /** `posixGroup` (members by `memberUid`) or `groupOfNames` (members by DN, fills `memberOf`). */
  readonly kind: 'posixGroup' | 'groupOfNames';
  /** `uid`s of the members. */
  readonly members: readonly string[];
}

/** Escapes one RDN value for a DN (RFC 4514), enough for the fixed names below. */
function rdnValue(value: string): string {
  return value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^[ #]/, (c) => `\\${c}`);
}

function person(uid: string, cn: string, sn: string, password: string): SlapdUser {
  return {
    uid,
    cn,
    sn,
    password,
    dn: `cn=${rdnValue(cn)},ou=people,${SLAPD_BASE_DN}`,
    upn: `${uid}@${SLAPD_UPN_DOMAIN}`,
  };
}

/**
 * The people of the test directory. `alice`, `bob` and `carol` are ordinary; `twin1`/`twin2`
 * share `sn: Twin`; `oneil` has a `cn` with characters that must be escaped in a DN.
 */
export const SLAPD_USERS: readonly SlapdUser[] = [
  person('alice', 'alice', 'Liddell', 'alice-pw'),
  person('bob', 'bob', 'Builder', 'bob-pw'),
  person('carol', 'carol', 'Singer', 'carol-pw'),
  person('twin1', 'twin1', 'Twin', 'twin1-pw'),
  person('twin2', 'twin2', 'Twin', 'twin2-pw'),
  person('oneil', "o'neil, jr+1", 'Oneil', 'oneil-pw'),
];

/** The service account used as `binddn` (`cn=reader,ou=services,dc=sked,dc=test`). */
export const SLAPD_READER = {
  dn: `cn=reader,ou=services,${SLAPD_BASE_DN}`,
  password: 'reader-pw',
} as const;

function group(cn: string, ou: string, kind: SlapdGroup['kind'], members: string[]): SlapdGroup {
  return { cn, dn: `cn=${rdnValue(cn)},ou=${ou},${SLAPD_BASE_DN}`, kind, members };
}

/**
 * The groups. Under `ou=groups`: `devs` (posixGroup: alice, bob), `admins` (groupOfNames: alice),
 * `Ops-Team` (groupOfNames, mixed case: bob, carol). Under `ou=staff` (readable only by bound
 * users, not anonymously): `staff` (groupOfNames: alice).
 */
export const SLAPD_GROUPS: readonly SlapdGroup[] = [
  group('devs', 'groups', 'posixGroup', ['alice', 'bob']),
  group('admins', 'groups', 'groupOfNames', ['alice']),
  group('Ops-Team', 'groups', 'groupOfNames', ['bob', 'carol']),
  group('staff', 'staff', 'groupOfNames', ['alice']),
];

/** Base DN of the people (`ou=people,dc=sked,dc=test`). */
export const SLAPD_PEOPLE_DN = `ou=people,${SLAPD_BASE_DN}`;
/** Base DN of the groups readable anonymously (`ou=groups,dc=sked,dc=test`). */
export const SLAPD_GROUPS_DN = `ou=groups,${SLAPD_BASE_DN}`;
/** Base DN of the groups readable only by bound users (`ou=staff,dc=sked,dc=test`). */
export const SLAPD_STAFF_DN = `ou=staff,${SLAPD_BASE_DN}`;

function ldifEntry(lines: readonly string[]): string {
  return `${lines.join('\n')}\n\n`;
}

/**
 * The LDIF of the initial directory (containers, people, service account, groups).
 * @returns LDIF text for `ldapadd`.
 * @internal
 */
export function initialLdif(): string {
  const out: string[] = [];
  out.push(
    ldifEntry([
      `dn: ${SLAPD_BASE_DN}`,
      'objectClass: dcObject',
      'objectClass: organization',
      'o: sked test',
      'dc: sked',
    ]),
  );
  for (const ou of ['people', 'services', 'groups', 'staff']) {
    out.push(ldifEntry([`dn: ou=${ou},${SLAPD_BASE_DN}`, 'objectClass: organizationalUnit', `ou: ${ou}`]));
  }
  out.push(
    ldifEntry([
      `dn: ${SLAPD_READER.dn}`,
      'objectClass: organizationalRole',
      'objectClass: simpleSecurityObject',
      'cn: reader',
      `userPassword: ${SLAPD_READER.password}`,
    ]),
  );
  for (const user of SLAPD_USERS) {
    out.push(
      ldifEntry([
        `dn: ${user.dn}`,
        'objectClass: inetOrgPerson',
        'objectClass: skedPrincipal',
        `cn: ${user.cn}`,
        `sn: ${user.sn}`,
        `uid: ${user.uid}`,
        `mail: ${user.uid}@${SLAPD_UPN_DOMAIN}`,
        `userPrincipalName: ${user.upn}`,
        `userPassword: ${user.password}`,
      ]),
    );
  }
  const dnOf = (uid: string): string => SLAPD_USERS.find((u) => u.uid === uid)?.dn ?? '';
  for (const g of SLAPD_GROUPS) {
    const members =
      g.kind === 'posixGroup'
        ? [
            'objectClass: posixGroup',
            `gidNumber: ${5000 + SLAPD_GROUPS.indexOf(g)}`,
            ...g.members.map((m) => `memberUid: ${m}`),
          ]
        : ['objectClass: groupOfNames', ...g.members.map((m) => `member: ${dnOf(m)}`)];
    out.push(ldifEntry([`dn: ${g.dn}`, `cn: ${g.cn}`, ...members]));
  }
  return out.join('');
}
