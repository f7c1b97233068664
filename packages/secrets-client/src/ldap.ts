import { ApiError, isObject, path as encodedPath, unusableAnswer, type Transport } from '@sked/http';
import {
  LdapConfigRequest,
  LdapGroupWriteRequest,
  LdapUserWriteRequest,
  type LdapAuth,
  type LdapConfig,
  type LdapGroup,
  type LdapUser,
} from '@sked/model';

import { InvalidRequestError } from './errors.js';
import { call, metaOf } from './internal/envelope.js';
import { joinList, requireName } from './internal/names.js';
import type { RequestOptions, Result } from './options.js';

/**
 * Body of a group write: its policies, as an array or a comma-separated string.
 * @since 0.1.0
 */
export interface LdapGroupInput {
  /**
   * Policy names.
   * @defaultValue none
   */
  readonly policies?: readonly string[] | string | undefined;
}

/**
 * Body of a user write: policies and local groups, each an array or a comma-separated string.
 * @since 0.1.0
 */
export interface LdapUserInput {
  /**
   * Policy names.
   * @defaultValue none
   */
  readonly policies?: readonly string[] | string | undefined;
  /**
   * Names of local groups.
   * @defaultValue none
   */
  readonly groups?: readonly string[] | string | undefined;
}

/**
 * `config` endpoints of the LDAP auth method.
 * @since 0.1.0
 */
export interface LdapConfigApi {
  /**
   * `GET .../config`: the configuration (`bindpass` is always `""`).
   * @param options - Signal, timeout.
   * @returns The configuration.
   * @throws `ApiError` (403 without the root token).
   */
  read(this: void, options?: RequestOptions): Promise<Result<LdapConfig>>;
  /**
   * `POST .../config`: merges the given parameters into the configuration.
   * @param config - Parameters to set; the others keep their value.
   * @param options - Signal, timeout.
   * @returns When stored.
   * @throws {@link InvalidRequestError} before any request for an unknown parameter or a value of
   *   the wrong type; `ApiError` for what the server refuses (400 naming the parameter, 403).
   */
  write(this: void, config: LdapConfigRequest, options?: RequestOptions): Promise<Result<void>>;
}

/**
 * Endpoints of one kind of record (groups or users).
 * @typeParam R - The record as read.
 * @typeParam I - The record as written.
 * @since 0.1.0
 */
export interface LdapRecordsApi<R, I> {
  /**
   * `LIST .../groups` or `.../users`: the names, sorted. The service answers an empty list with
   * 404 and an empty `errors` list; that resolves `{ data: [] }`.
   * @param options - Signal, timeout.
   * @returns The names.
   * @throws `ApiError` (403 without the root token).
   */
  list(this: void, options?: RequestOptions): Promise<Result<string[]>>;
  /**
   * `GET .../<name>`: one record.
   * @param name - Group name or username.
   * @param options - Signal, timeout.
   * @returns The record.
   * @throws {@link InvalidRequestError} for an empty or malformed name; `ApiError` 404 when it
   *   does not exist, as in every sked client.
   */
  read(this: void, name: string, options?: RequestOptions): Promise<Result<R>>;
  /**
   * `POST .../<name>`: creates or replaces a record.
   * @param name - Group name or username.
   * @param record - Policies (and, for users, groups).
   * @param options - Signal, timeout.
   * @returns When stored.
   * @throws {@link InvalidRequestError} for a bad name or list; `ApiError`.
   */
  write(this: void, name: string, record: I, options?: RequestOptions): Promise<Result<void>>;
  /**
   * `DELETE .../<name>`: removes a record (no error when it does not exist).
   * @param name - Group name or username.
   * @param options - Signal, timeout.
   * @returns When removed.
   * @throws {@link InvalidRequestError} for a bad name; `ApiError`.
   */
  delete(this: void, name: string, options?: RequestOptions): Promise<Result<void>>;
}

/**
 * The LDAP auth method (`client.ldap`).
 * @since 0.1.0
 */
export interface LdapApi {
  /** The mount path, `auth/ldap`. */
  readonly mountPath: string;
  /** Configuration. */
  readonly config: LdapConfigApi;
  /** Groups mapped to policies. */
  readonly groups: LdapRecordsApi<LdapGroup, LdapGroupInput>;
  /** Users mapped to policies and groups. */
  readonly users: LdapRecordsApi<LdapUser, LdapUserInput>;
  /**
   * `POST .../login/<username>`: logs in against the directory.
   * @param username - The username (case preserved).
   * @param password - The password (never put in an error message).
   * @param options - Signal, timeout.
   * @returns The issued token and its policies (`auth` of the answer).
   * @throws {@link InvalidRequestError} for an empty username or a password that is not a string;
   *   `ApiError` 400 `ldap operation failed: ...` when the directory says no.
   */
  login(this: void, username: string, password: string, options?: RequestOptions): Promise<Result<LdapAuth>>;
}

const CONFIG_CHECK = { schema: LdapConfigRequest, name: 'the LDAP configuration', parameter: 'config' };

function recordsApi<R, I>(
  transport: Transport,
  base: string,
  kind: 'groups' | 'users',
  body: (record: I) => Record<string, string>,
): LdapRecordsApi<R, I> {
  const parameter = kind === 'groups' ? 'name' : 'username';
  const check =
    kind === 'groups'
      ? { schema: LdapGroupWriteRequest, name: 'the group', parameter: 'record' }
      : { schema: LdapUserWriteRequest, name: 'the user', parameter: 'record' };
  const pathOf = (name: string): string => base + encodedPath`/${kind}/${requireName(name, parameter)}`;
  return {
    async list(options) {
      let answer;
      try {
        answer = await call<{ keys: string[] }>(transport, 'LIST', `${base}/${kind}`, options);
      } catch (error) {
        if (isEmptyList(error)) return { data: [], meta: metaOf(error.meta, undefined) };
        throw error;
      }
      const data = answer.envelope?.data;
      const keys = isObject(data) ? data['keys'] : undefined;
      if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) {
        throw unusableAnswer('LIST', `${base}/${kind}`, 'a list of names (data.keys)', data);
      }
      return { data: keys, meta: answer.meta };
    },
    async read(name, options) {
      const path = pathOf(name);
      const { envelope, meta } = await call<R>(transport, 'GET', path, options);
      if (!isObject(envelope?.data)) {
        throw unusableAnswer('GET', path, `a ${kind === 'groups' ? 'group' : 'user'} (data)`, envelope?.data);
      }
      return { data: envelope.data as R, meta };
    },
    async write(name, record, options) {
      const path = pathOf(name);
      if (typeof record !== 'object' || record === null || Array.isArray(record)) {
        throw new InvalidRequestError(`${kind === 'groups' ? 'group' : 'user'} must be an object.`, 'record');
      }
      const { meta } = await call(transport, 'POST', path, options, body(record), check);
      return { data: undefined, meta };
    },
    async delete(name, options) {
      const { meta } = await call(transport, 'DELETE', pathOf(name), options);
      return { data: undefined, meta };
    },
  };
}

/** A 404 whose body is `{"errors": []}`: how the service answers a LIST with nothing in it. */
function isEmptyList(error: unknown): error is ApiError {
  if (!ApiError.is(error) || error.status !== 404 || !isObject(error.body)) return false;
  const errors = error.body['errors'];
  return Array.isArray(errors) && errors.length === 0;
}

function defined(entries: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
}

/**
 * Builds `client.ldap` over a transport.
 * @param transport - The secrets service transport.
 * @param mountPath - `auth/ldap` or another mount.
 * @returns The API.
 * @internal
 */
export function createLdapApi(transport: Transport, mountPath: string): LdapApi {
  const base = `/v1/${mountPath}`;
  return {
    mountPath,
    config: {
      async read(options) {
        const { envelope, meta } = await call<LdapConfig>(transport, 'GET', `${base}/config`, options);
        if (!isObject(envelope?.data)) {
          throw unusableAnswer('GET', `${base}/config`, 'a configuration (data)', envelope?.data);
        }
        return { data: envelope.data as LdapConfig, meta };
      },
      async write(config, options) {
        const { meta } = await call(transport, 'POST', `${base}/config`, options, config, CONFIG_CHECK);
        return { data: undefined, meta };
      },
    },
    groups: recordsApi<LdapGroup, LdapGroupInput>(transport, base, 'groups', (record) =>
      defined({ policies: joinList(record.policies, 'policies') }),
    ),
    users: recordsApi<LdapUser, LdapUserInput>(transport, base, 'users', (record) =>
      defined({ policies: joinList(record.policies, 'policies'), groups: joinList(record.groups, 'groups') }),
    ),
    async login(username, password, options) {
      const path = base + encodedPath`/login/${requireName(username, 'username')}`;
      if (typeof password !== 'string') {
        throw new InvalidRequestError(`password must be a string, not ${typeof password}.`, 'password');
      }
      const { envelope, meta } = await call<null, LdapAuth>(transport, 'POST', path, options, { password });
      const auth: unknown = envelope?.auth;
      if (!isObject(auth) || typeof auth['client_token'] !== 'string') {
        throw unusableAnswer('POST', path, 'a login (auth with a client_token)', auth);
      }
      return { data: auth as unknown as LdapAuth, meta };
    },
  };
}
