/**
 * Login against the LDAP directory with `ldapts`: connect (URLs in order, LDAPS or StartTLS, the
 * configured TLS versions, CA and client certificate), find the user's bind DN (service bind and
 * search, anonymous discovery, the UPN, or `userattr=<username>,userdn`), bind as the user, then
 * search the user's groups. Every value placed into a filter or DN is escaped (RFC 4515 / 4514).
 * The whole login is bounded by `request_timeout`.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { Client, type Entry } from 'ldapts';
import type { LdapSettings } from './config.js';
import { escapeDnValue, escapeFilterValue, firstRdnValue } from './escape.js';
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
}

const BIND_FAILED = 'failed to bind as user';
const TLS_NAMES = { tls10: 'TLSv1', tls11: 'TLSv1.1', tls12: 'TLSv1.2', tls13: 'TLSv1.3' } as const;

function tlsOptions(settings: LdapSettings, host: string): ConnectionOptions {
  return {
    ...(isIP(host) === 0 ? { servername: host } : {}),
    minVersion: TLS_NAMES[settings.tls_min_version],
    maxVersion: TLS_NAMES[settings.tls_max_version],
    rejectUnauthorized: !settings.insecure_tls,
    ...(settings.certificate.trim() === '' ? {} : { ca: settings.certificate }),
    ...(settings.client_tls_cert === ''
      ? {}
      : { cert: settings.client_tls_cert, key: settings.client_tls_key }),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/** Longest delay a Node timer holds (2^31-1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay in milliseconds for a timer: `seconds` as milliseconds, never more than a timer holds.
 * @param seconds - The duration.
 * @returns Milliseconds, at most {@link MAX_TIMER_MS}.
 */
export function timerMs(seconds: number): number {
  return Math.min(Math.max(0, seconds) * 1000, MAX_TIMER_MS);
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(3).replace(/0+$/, '')}s`;
}

/** A URL that could not be used (no connection, no answer in its share of the time): try the next. */
class Unreachable extends Error {
  override readonly name = 'Unreachable' as const;
}

/**
 * The connections of one attempt on one URL. Closing it ends every one of them and destroys any
 * socket opened later (a step still running after its deadline), so no connection outlives it.
 */
class Connections {
  readonly #sockets = new Set<Socket | TLSSocket>();
  readonly #clients: Client[] = [];
  #closed = false;

  /** Keeps a socket (destroyed at once when the attempt is over). */
  add(socket: Socket | TLSSocket): void {
    if (this.#closed) {
      socket.destroy();
      throw new Unreachable('the login is over');
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  /** Keeps a client, to unbind it at the end. */
  track(client: Client): void {
    this.#clients.push(client);
  }

  /** Unbinds every client (the request is written, not awaited) and destroys every socket. */
  close(): void {
    this.#closed = true;
    for (const client of this.#clients) void client.unbind().catch(() => undefined);
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }
}

/** Opens the TCP (or TLS) connection ourselves, so that a dead URL is skipped before any bind. */
function openSocket(
  url: URL,
  host: string,
  port: number,
  settings: LdapSettings,
  ms: number,
  connections: Connections,
): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'ldaps:';
    const socket = secure
      ? tlsConnect({ host, port, ...tlsOptions(settings, host) })
      : netConnect({ host, port });
    connections.add(socket);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Unreachable(`no answer within ${formatMs(ms)}`));
    }, ms);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Unreachable(describe(error)));
    });
  });
}

/** A connection to one URL (after StartTLS when configured). */
async function dial(
  settings: LdapSettings,
  raw: string,
  ms: number,
  connections: Connections,
): Promise<Client> {
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = url.protocol === 'ldaps:';
  const port = url.port === '' ? (secure ? 636 : 389) : Number(url.port);
  const socket = await openSocket(url, host, port, settings, ms, connections);
  // ldapts reconnects by itself when its socket is gone: it gets this socket once, never another.
  let handed = false;
  const only = (() => {
    if (handed) throw new Unreachable('connection closed');
    handed = true;
    return socket;
  }) as unknown as typeof netConnect;
  const client = new Client({
    url: `${url.protocol}//${url.host}`,
    timeout: ms,
    connectTimeout: ms,
    strictDN: false,
    createConnection: only,
    createSecureConnection: (secure ? only : tlsConnect) as typeof tlsConnect,
  });
  connections.track(client);
  if (settings.starttls && !secure) {
    try {
      await client.startTLS(tlsOptions(settings, host));
    } catch (error) {
      throw new Unreachable(describe(error));
    }
  }
  return client;
}

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
async function userBindDn(client: Client, settings: LdapSettings, username: string): Promise<string> {
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
        attributes: ['1.1'],
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
    return (entries[0] as Entry).dn;
  }
  if (settings.upndomain !== '') return `${escapeDnValue(username)}@${settings.upndomain}`;
  return `${settings.userattr}=${escapeDnValue(username)}${settings.userdn === '' ? '' : `,${settings.userdn}`}`;
}

/** The user's DN after the bind: searched by UPN when `upndomain` is set. */
async function userDnAfterBind(
  client: Client,
  settings: LdapSettings,
  bindDn: string,
  username: string,
): Promise<string> {
  if (settings.upndomain === '') return bindDn;
  const filter = `(userPrincipalName=${escapeFilterValue(username)}@${escapeFilterValue(settings.upndomain)})`;
  try {
    const { searchEntries } = await client.search(settings.userdn, {
      scope: 'sub',
      filter,
      attributes: ['1.1'],
      sizeLimit: 2,
    });
    if (searchEntries.length !== 1) {
      throw new LoginFailure(
        `LDAP search for the user's DN by UPN found ${searchEntries.length} entries; it must find one`,
      );
    }
    return (searchEntries[0] as Entry).dn;
  } catch (error) {
    if (error instanceof LoginFailure) throw error;
    throw new LoginFailure(`LDAP search for the user's DN failed: ${describe(error)}`);
  }
}

async function searchGroups(
  client: Client,
  settings: LdapSettings,
  userDn: string,
  username: string,
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
    }));
  } catch (error) {
    throw new LoginFailure(
      `LDAP search for groups failed using filter ${JSON.stringify(filter)}: ${describe(error)}`,
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
): Promise<DirectoryLogin> {
  const client = await dial(settings, raw, ms, connections);
  const bindDn = await userBindDn(client, settings, username);
  const service = settings.binddn !== '' && settings.bindpass !== '';
  const bindUser = async (): Promise<void> => {
    try {
      await client.bind(bindDn, password);
    } catch {
      throw new LoginFailure(BIND_FAILED);
    }
  };
  const lookups = async (searcher: Client): Promise<DirectoryLogin> => {
    const userDn = await userDnAfterBind(searcher, settings, bindDn, username);
    const groupClient = settings.anonymous_group_search
      ? await dial(settings, raw, ms, connections)
      : searcher;
    return { userDn, groups: await searchGroups(groupClient, settings, userDn, username) };
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

/** Runs a login on one URL within `ms`; past it, the attempt is {@link Unreachable}. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  // After the deadline the work may still fail on its own (its sockets are destroyed): ignored.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Unreachable(`did not answer within ${formatMs(ms)}`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Authenticates a user against the configured directory. The URLs are tried in order within
 * `request_timeout`, each getting an equal share of what is left, so that a server that accepts
 * connections and never answers does not use up the time of the next one. A URL is left for the
 * next when it cannot be reached or does not answer within its share; an answer (wrong password,
 * a failed search) is final. Every connection a URL's attempt opened is closed when the attempt
 * ends, whatever the outcome, and a step still running after it opens none.
 * @param settings - The LDAP configuration.
 * @param username - The username from the login path (case preserved).
 * @param password - The password from the body.
 * @returns The user's DN and directory groups.
 * @throws {@link LoginFailure} with the cause: empty password under `deny_null_bind`, no directory
 *   reachable (each URL's error), bad credentials, several users, a failed search, the timeout.
 */
export async function authenticate(
  settings: LdapSettings,
  username: string,
  password: string,
): Promise<DirectoryLogin> {
  if (settings.deny_null_bind && password === '') {
    throw new LoginFailure('password cannot be of zero length when passwordless binds are being denied');
  }
  const deadline = Date.now() + timerMs(settings.request_timeout);
  const urls = settings.url.split(',').map((u) => u.trim());
  const errors: string[] = [];
  for (const [index, raw] of urls.entries()) {
    const left = deadline - Date.now();
    if (left <= 0) {
      errors.push(
        `host ${JSON.stringify(raw)} not tried: request_timeout of ${settings.request_timeout}s used up`,
      );
      continue;
    }
    const share = Math.max(1, Math.floor(left / (urls.length - index)));
    const connections = new Connections();
    try {
      return await within(share, loginOn(settings, raw, share, connections, username, password));
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      errors.push(`error connecting to host ${JSON.stringify(raw)}: ${error.message}`);
    } finally {
      connections.close();
    }
  }
  throw new LoginFailure(errors.join('; '));
}
