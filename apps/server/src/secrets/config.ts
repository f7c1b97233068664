/**
 * The LDAP configuration: the stored form (every one of the 32 parameters, durations in seconds,
 * lists as arrays), how a write merges into it, and what a read returns.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { LdapConfigDefaults } from '@sked/model';
import Type from 'typebox';
import { badRequest } from '../http/errors.js';
import {
  boolParam,
  cidrsParam,
  countParam,
  durationParam,
  durationSeconds,
  enumParam,
  listParam,
  longerThan,
  param,
  paramSet,
  readParams,
  stringParam,
  TIMER_DURATION,
  type Param,
  type Rule,
} from './params.js';
import { templateProblem } from './template.js';

/** TLS versions, lowest first. */
export const TLS_VERSIONS = ['tls10', 'tls11', 'tls12', 'tls13'] as const;
/** One of {@link TLS_VERSIONS}. */
export type TlsVersion = (typeof TLS_VERSIONS)[number];
const TOKEN_TYPES = ['', 'service', 'batch', 'default', 'default-service', 'default-batch'] as const;

/** The stored configuration: all parameters, decoded. */
export interface LdapSettings {
  readonly url: string;
  readonly case_sensitive_names: boolean;
  /** Seconds. */
  readonly request_timeout: number;
  readonly starttls: boolean;
  readonly tls_min_version: TlsVersion;
  readonly tls_max_version: TlsVersion;
  readonly insecure_tls: boolean;
  readonly certificate: string;
  readonly client_tls_cert: string;
  readonly client_tls_key: string;
  readonly binddn: string;
  /** Never returned or logged. */
  readonly bindpass: string;
  readonly userdn: string;
  readonly userattr: string;
  readonly discoverdn: boolean;
  readonly deny_null_bind: boolean;
  readonly upndomain: string;
  readonly userfilter: string;
  readonly anonymous_group_search: boolean;
  readonly groupfilter: string;
  readonly groupdn: string;
  readonly groupattr: string;
  readonly username_as_alias: boolean;
  /** Seconds. */
  readonly token_ttl: number;
  /** Seconds. */
  readonly token_max_ttl: number;
  readonly token_policies: readonly string[];
  readonly token_bound_cidrs: readonly string[];
  /** Seconds. */
  readonly token_explicit_max_ttl: number;
  readonly token_no_default_policy: boolean;
  readonly token_num_uses: number;
  /** Seconds. */
  readonly token_period: number;
  readonly token_type: (typeof TOKEN_TYPES)[number];
}

/** The configuration before any write. */
export const DEFAULT_SETTINGS: LdapSettings = {
  ...LdapConfigDefaults,
  tls_min_version: 'tls12',
  tls_max_version: 'tls12',
  token_policies: [],
  token_bound_cidrs: [],
  token_type: '',
};

/** Names of every configuration parameter, in the order of the spec. */
export const CONFIG_PARAMETERS = Object.keys(DEFAULT_SETTINGS) as (keyof LdapSettings)[];

/** The URLs of a `url` value: comma-separated, trimmed. */
const urlList = (value: string): string[] => value.split(',').map((u) => u.trim());

function isLdapUrl(text: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return false;
  }
  return (parsed.protocol === 'ldap:' || parsed.protocol === 'ldaps:') && parsed.hostname !== '';
}

const url = param(
  'url',
  Type.String(),
  'a string',
  [
    longerThan('url', 8192),
    {
      check: (value) => urlList(value).every(isLdapUrl),
      message: (value) =>
        `invalid value for "url": ${JSON.stringify(urlList(value).find((u) => !isLdapUrl(u)))} is not an ldap:// or ldaps:// URL`,
    },
  ],
  (value) => urlList(value).join(','),
);

/** A PEM value (`""` for none) that `accepts` reads. */
const pem = (name: string, accepts: (pem: string) => unknown, what: string): Param<string> =>
  stringParam(name, 65_536, [
    {
      check: (value) => {
        if (value.trim() === '') return true;
        try {
          accepts(value);
          return true;
        } catch {
          return false;
        }
      },
      message: () => `invalid value for "${name}": not ${what}`,
    },
  ]);

const ATTRIBUTE = /^([A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)*)$/;
/** An LDAP attribute name (`""` allowed when `optional`). */
const attribute = (name: string, optional: boolean): Param<string> =>
  stringParam(name, 256, [
    {
      check: (value) => (optional && value === '') || ATTRIBUTE.test(value),
      message: (value) => `invalid value for "${name}": ${JSON.stringify(value)} is not an attribute name`,
    },
  ]);

/** A search filter template using only `variables` (`""` for the default). */
const template = (name: string, variables: readonly string[]): Param<string> =>
  stringParam(name, 65_536, [
    {
      check: (value) => value === '' || templateProblem(value, variables) === undefined,
      message: (value) => `invalid value for "${name}": ${templateProblem(value, variables) ?? ''}`,
    },
  ]);

const atLeastOneSecond: Rule<number | string> = {
  check: (value) => durationSeconds(value) !== 0,
  message: () => 'invalid value for "request_timeout": it must be at least 1 second',
};

/** Every configuration parameter: its wire form and what is stored. */
const PARAMS: { readonly [K in keyof LdapSettings]: Param<LdapSettings[K]> } = {
  url,
  case_sensitive_names: boolParam('case_sensitive_names'),
  request_timeout: durationParam('request_timeout', TIMER_DURATION, [atLeastOneSecond]),
  starttls: boolParam('starttls'),
  tls_min_version: enumParam('tls_min_version', TLS_VERSIONS),
  tls_max_version: enumParam('tls_max_version', TLS_VERSIONS),
  insecure_tls: boolParam('insecure_tls'),
  certificate: pem('certificate', (text) => new X509Certificate(text), 'an x509 PEM certificate'),
  client_tls_cert: pem('client_tls_cert', (text) => new X509Certificate(text), 'an x509 PEM certificate'),
  client_tls_key: pem('client_tls_key', (text) => createPrivateKey(text), 'a PEM private key'),
  binddn: stringParam('binddn'),
  bindpass: stringParam('bindpass'),
  userdn: stringParam('userdn'),
  userattr: attribute('userattr', false),
  discoverdn: boolParam('discoverdn'),
  deny_null_bind: boolParam('deny_null_bind'),
  upndomain: stringParam('upndomain'),
  userfilter: template('userfilter', ['UserAttr', 'Username']),
  anonymous_group_search: boolParam('anonymous_group_search'),
  groupfilter: template('groupfilter', ['UserDN', 'Username']),
  groupdn: stringParam('groupdn'),
  groupattr: attribute('groupattr', true),
  username_as_alias: boolParam('username_as_alias'),
  token_ttl: durationParam('token_ttl'),
  token_max_ttl: durationParam('token_max_ttl'),
  token_policies: listParam('token_policies'),
  token_bound_cidrs: cidrsParam('token_bound_cidrs'),
  token_explicit_max_ttl: durationParam('token_explicit_max_ttl'),
  token_no_default_policy: boolParam('token_no_default_policy'),
  token_num_uses: countParam('token_num_uses'),
  token_period: durationParam('token_period'),
  token_type: enumParam('token_type', TOKEN_TYPES),
};

/** The parameters of a configuration write, in the spec's order. */
const CONFIG_WRITE = paramSet(CONFIG_PARAMETERS.map((name) => PARAMS[name] as Param<unknown>));

/**
 * Merges a configuration write into the stored settings: parameters not sent (or a `null` list) keep
 * their value. The body is validated whole (the parameters' schemas, `readParams`) before anything is
 * returned, so a bad one stores nothing.
 * @param current - The stored settings.
 * @param body - The parsed request body.
 * @returns The new settings.
 * @throws 400 naming the first bad or unknown parameter, or an inconsistent combination.
 */
export function applyConfigWrite(current: LdapSettings, body: unknown): LdapSettings {
  const settings = { ...current, ...Object.fromEntries(readParams(CONFIG_WRITE, body)) } as LdapSettings;
  if (TLS_VERSIONS.indexOf(settings.tls_max_version) < TLS_VERSIONS.indexOf(settings.tls_min_version)) {
    throw badRequest('"tls_max_version" must be greater than or equal to "tls_min_version"');
  }
  if ((settings.client_tls_cert === '') !== (settings.client_tls_key === '')) {
    throw badRequest('"client_tls_cert" and "client_tls_key" must be set together');
  }
  if (settings.token_max_ttl > 0 && settings.token_ttl > settings.token_max_ttl) {
    throw badRequest('"token_ttl" cannot be greater than "token_max_ttl"');
  }
  return settings;
}

/**
 * The configuration as a read returns it: every parameter, `bindpass` and `client_tls_key` always `""`, durations in
 * seconds, lists as arrays.
 * @param settings - The stored settings.
 * @returns The `data` of `GET .../config`.
 */
export function configView(settings: LdapSettings): Record<string, unknown> {
  return {
    ...settings,
    bindpass: '',
    client_tls_key: '',
    token_policies: [...settings.token_policies],
    token_bound_cidrs: [...settings.token_bound_cidrs],
  };
}
