/**
 * Login against the LDAP directory with `ldapts`: connect (URLs in order, LDAPS or StartTLS, the
 * configured TLS versions, CA and client certificate), find the user's bind DN (service bind and
 * search, anonymous discovery, the UPN, or `userattr=<username>,userdn`), bind as the user, then
 * search the user's groups. Every value placed into a filter or DN is escaped (RFC 4515 / 4514).
 * The whole login is bounded by `request_timeout` (connections: `ldap-connect.ts`).
 */
import type { Client, Entry } from 'ldapts';
import type { LdapSettings } from './config.js';
import { escapeDnValue, escapeFilterValue, firstRdnValue } from './escape.js';
import { CallerGone, Connections, describe, dial, timerMs, Unreachable, within } from './ldap-connect.js';
import { renderFilter } from './template.js';

/** A failed login; the message is the cause (the route prefixes `ldap operation failed: `). */
export class LoginFailure extends Error {
  /** Literal class name. */
  override readonly name = 'LoginFailure' as const;
}

/** What the directory says about a user who bound successfully. */
export interface DirectoryLogin {
  /** The user's DN. */
  readonly userDn: string;
  /** Group names from the directory (first RDN values), unique, in the directory's order. */
  readonly groups: readonly string[];
  /**
   * The user's name as the directory holds it (the `userattr` value of the user's entry, or the
   * UPN without its domain), matched to the login name; undefined when the directory gave none.
   */
  readonly name: string | undefined;
}

/** The attribute that names a user: the UPN with `upndomain`, else `userattr`. */
function nameAttribute(settings: LdapSettings): string {
  return settings.upndomain === '' ? settings.userattr : 'userPrincipalName';
}

/**
 * The user's name from the values of the naming attribute of the user's entry: the one equal to
 * the login name once case and insignificant spaces are set aside (LDAP matched it so), else the
 * first; a UPN loses its `@upndomain`.
 * @param settings - The configuration (for `upndomain`).
 * @param values - The attribute's values.
 * @param username - The login name as sent.
 * @returns The name, or undefined without values.
 */
export function directoryName(
  settings: Pick<LdapSettings, 'upndomain'>,
  values: readonly string[],
  username: string,
): string | undefined {
  const suffix = `@${settings.upndomain}`.toLowerCase();
  const names = values.map((v) =>
    settings.upndomain !== '' && v.toLowerCase().endsWith(suffix) ? v.slice(0, -suffix.length) : v,
  );
  const loose = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return names.find((n) => loose(n) === loose(username)) ?? names[0];
}

const BIND_FAILED = 'failed to bind as user';

function attributeValues(entry: Entry, attribute: string): string[] {
  const lower = attribute.toLowerCase();
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'dn' || key.toLowerCase() !== lower) continue;
    const list = Array.isArray(value) ? value : [value];
    return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
  }
  return [];
}

function userFilter(settings: LdapSettings, username: string): string {
  const template = settings.userfilter === '' ? '({{.UserAttr}}={{.Username}})' : settings.userfilter;
  if (settings.upndomain !== '') {
    return renderFilter(
      template,
      {
        UserAttr: 'userPrincipalName',
        Username: `${escapeFilterValue(username)}@${escapeFilterValue(settings.upndomain)}`,
      },
      ['UserAttr', 'Username'],
    );
  }
  return renderFilter(template, { UserAttr: settings.userattr, Username: username });
}

/** The DN to bind as: searched (service bind or anonymous discovery), the UPN, or built. */
async function userBindDn(
  client: Client,
  settings: LdapSettings,
  username: string,
): Promise<{ dn: string; names: string[] | undefined }> {
  if (settings.discoverdn || (settings.binddn !== '' && settings.bindpass !== '')) {
    try {
      await client.bind(settings.binddn, settings.bindpass);
    } catch (error) {
      throw new LoginFailure(`LDAP bind (service) failed: ${describe(error)}`);
    }
    const filter = userFilter(settings, username);
    let entries: Entry[];
    try {
      ({ searchEntries: entries } = await client.search(settings.userdn, {
        scope: 'sub',
        filter,
        attributes: [nameAttribute(settings)],
        sizeLimit: 2,
      }));
    } catch (error) {
      throw new LoginFailure(
        `LDAP search for the user failed using filter ${JSON.stringify(filter)}: ${describe(error)}`,
      );
    }
    if (entries.length === 0) throw new LoginFailure(BIND_FAILED);
    if (entries.length > 1) {
      throw new LoginFailure(
        `LDAP search for the user returned several entries for filter ${JSON.stringify(filter)}; it must select one`,
      );
    }
    const entry = entries[0] as Entry;
    return { dn: entry.dn, names: attributeValues(entry, nameAttribute(settings)) };
  }
  if (settings.upndomain !== '')
    return { dn: `${escapeDnValue(username)}@${settings.upndomain}`, names: undefined };
  const dn = `${settings.userattr}=${escapeDnValue(username)}${settings.userdn === '' ? '' : `,${settings.userdn}`}`;
  return { dn, names: undefined };
}

/** The naming attribute's values of the user's own entry (after the user's bind), or none. */
async function readNames(client: Client, settings: LdapSettings, userDn: string): Promise<string[]> {
  try {
    const { searchEntries } = await client.search(userDn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: [nameAttribute(settings)],
      sizeLimit: 1,
    });
    const entry = searchEntries[0];
    return entry === undefined ? [] : attributeValues(entry, nameAttribute(settings));
  } catch {
    return [];
  }
}

/** The user's DN after the bind: searched by UPN when `upndomain` is set. */
async function userDnAfterBind(
  client: Client,
  settings: LdapSettings,
  bindDn: string,
  username: string,
): Promise<{ dn: string; names: string[] | undefined }> {
  if (settings.upndomain === '') return { dn: bindDn, names: undefined };
  const filter = `(userPrincipalName=${escapeFilterValue(username)}@${escapeFilterValue(settings.upndomain)})`;
  try {
    const { searchEntries } = await client.search(settings.userdn, {
      scope: 'sub',
      filter,
      attributes: ['userPrincipalName'],
      sizeLimit: 2,
    });
    if (searchEntries.length !== 1) {
      throw new LoginFailure(
        `LDAP search for the user's DN by UPN found ${searchEntries.length} entries; it must find one`,
      );
    }
    const entry = searchEntries[0] as Entry;
    return { dn: entry.dn, names: attributeValues(entry, 'userPrincipalName') };
  } catch (error) {
    if (error instanceof LoginFailure) throw error;
    throw new LoginFailure(`LDAP search for the user's DN failed: ${describe(error)}`);
  }
}

/**
 * The most group entries a login reads from the directory: the search asks for one more, and a
 * user found in more fails the login (a silently truncated list would drop policies).
 */
export const MAX_DIRECTORY_GROUPS = 10_000;

async function searchGroups(
  client: Client,
  settings: LdapSettings,
  userDn: string,
  username: string,
  maxGroups: number,
): Promise<string[]> {
  if (settings.groupdn === '' || settings.groupfilter === '') return [];
  const attribute = settings.groupattr === '' ? 'cn' : settings.groupattr;
  const filter = renderFilter(settings.groupfilter, { UserDN: userDn, Username: username });
  let entries: Entry[];
  try {
    ({ searchEntries: entries } = await client.search(settings.groupdn, {
      scope: 'sub',
      filter,
      attributes: [attribute],
      sizeLimit: maxGroups + 1,
    }));
  } catch (error) {
    throw new LoginFailure(
      `LDAP search for groups failed using filter ${JSON.stringify(filter)}: ${describe(error)}`,
    );
  }
  if (entries.length > maxGroups) {
    throw new LoginFailure(
      `LDAP search for groups using filter ${JSON.stringify(filter)} found more than ${maxGroups} entries, the most a login reads`,
    );
  }
  const names = new Set<string>();
  for (const entry of entries) {
    const values = attributeValues(entry, attribute);
    if (values.length === 0) names.add(firstRdnValue(entry.dn));
    for (const value of values) names.add(firstRdnValue(value));
  }
  return [...names];
}

/** The login on one URL: find the user's DN, bind as the user, search the groups. */
async function loginOn(
  settings: LdapSettings,
  raw: string,
  ms: number,
  connections: Connections,
  username: string,
  password: string,
  maxGroups: number,
): Promise<DirectoryLogin> {
  const client = await dial(settings, raw, ms, connections);
  const { dn: bindDn, names: searched } = await userBindDn(client, settings, username);
  const service = settings.binddn !== '' && settings.bindpass !== '';
  const bindUser = async (): Promise<void> => {
    try {
      await client.bind(bindDn, password);
    } catch {
      throw new LoginFailure(BIND_FAILED);
    }
  };
  const lookups = async (searcher: Client): Promise<DirectoryLogin> => {
    const { dn: userDn, names: found } = await userDnAfterBind(searcher, settings, bindDn, username);
    const names = searched ?? found ?? (await readNames(searcher, settings, userDn));
    const groupClient = settings.anonymous_group_search
      ? await dial(settings, raw, ms, connections)
      : searcher;
    return {
      userDn,
      groups: await searchGroups(groupClient, settings, userDn, username, maxGroups),
      name: directoryName(settings, names, username),
    };
  };
  if (service) {
    // The connection is bound as binddn already (the user search): the real method binds as the
    // user, binds back as binddn and searches. Searching first and binding as the user last
    // sends the same searches with the same credentials and saves a bind; the answer is only
    // used when the user's bind succeeds.
    const found = await lookups(client);
    await bindUser();
    return found;
  }
  await bindUser();
  return lookups(client);
}

/**
 * Authenticates a user against the configured directory. The URLs are tried in order within
 * `request_timeout`, each getting an equal share of what is left, so that a server that accepts
 * connections and never answers does not use up the time of the next one. A URL is left for the
 * next when it cannot be reached or does not answer within its share; an answer (wrong password,
 * a failed search) is final. Every connection a URL's attempt opened is closed when the attempt
 * ends, whatever the outcome (the caller giving up included), and a step still running after it
 * opens none.
 * @param settings - The LDAP configuration.
 * @param username - The username from the login path (case preserved).
 * @param password - The password from the body.
 * @param signal - Aborted when the caller gives up: the login stops and closes its connections.
 * @param maxGroups - The most directory groups read ({@link MAX_DIRECTORY_GROUPS}; tests lower it).
 * @returns The user's DN and directory groups.
 * @throws {@link LoginFailure} with the cause: empty password under `deny_null_bind`, no directory
 *   reachable (each URL's error), bad credentials, several users, a failed search, the timeout.
 */
export async function authenticate(
  settings: LdapSettings,
  username: string,
  password: string,
  signal?: AbortSignal,
  maxGroups = MAX_DIRECTORY_GROUPS,
): Promise<DirectoryLogin> {
  if (settings.deny_null_bind && password === '') {
    throw new LoginFailure('password cannot be of zero length when passwordless binds are being denied');
  }
  const total = timerMs(settings.request_timeout);
  const deadline = Date.now() + total;
  const urls = settings.url.split(',').map((u) => u.trim());
  const errors: string[] = [];
  for (const [index, raw] of urls.entries()) {
    const left = index === 0 ? total : deadline - Date.now();
    if (left <= 0) {
      errors.push(
        `host ${JSON.stringify(raw)} not tried: request_timeout of ${settings.request_timeout}s used up`,
      );
      continue;
    }
    const share = Math.max(1, Math.floor(left / (urls.length - index)));
    const connections = new Connections();
    try {
      return await within(
        share,
        loginOn(settings, raw, share, connections, username, password, maxGroups),
        signal,
      );
    } catch (error) {
      if (error instanceof CallerGone) throw new LoginFailure(error.message);
      if (!(error instanceof Unreachable)) throw error;
      errors.push(`error connecting to host ${JSON.stringify(raw)}: ${error.message}`);
    } finally {
      connections.close();
    }
  }
  throw new LoginFailure(errors.join('; '));
}
