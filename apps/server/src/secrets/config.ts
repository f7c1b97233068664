/**
 * The LDAP configuration: the stored form (every one of the 32 parameters, durations in seconds,
 * lists as arrays), how a write merges into it, and what a read returns.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { LdapConfigDefaults } from '@sked/model';
import { badRequest } from '../http/errors.js';
import {
  bodyParameters,
  decodeBool,
  decodeCidrs,
  decodeCount,
  decodeDuration,
  decodeEnum,
  decodeList,
  decodeString,
  TIMER_DURATION,
  withoutNullLists,
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

/** The comma-list parameters (JSON `null` counts as not sent). */
const LIST_PARAMETERS: readonly string[] = ['token_policies', 'token_bound_cidrs'];

type Decoder = (name: string, value: unknown) => unknown;
const text: Decoder = (name, value) => decodeString(name, value);
const DECODERS: Record<keyof LdapSettings, Decoder> = {
  url: (name, value) => {
    const urls = decodeString(name, value, 8192);
    const list = urls.split(',').map((u) => u.trim());
    for (const u of list) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(u);
      } catch {
        parsed = undefined;
      }
      if (
        parsed === undefined ||
        (parsed.protocol !== 'ldap:' && parsed.protocol !== 'ldaps:') ||
        parsed.hostname === ''
      ) {
        throw badRequest(`invalid value for "url": ${JSON.stringify(u)} is not an ldap:// or ldaps:// URL`);
      }
    }
    return list.join(',');
  },
  case_sensitive_names: decodeBool,
  request_timeout: (name, value) => {
    const seconds = decodeDuration(name, value, TIMER_DURATION);
    if (seconds === 0) throw badRequest('invalid value for "request_timeout": it must be at least 1 second');
    return seconds;
  },
  starttls: decodeBool,
  tls_min_version: (name, value) => decodeEnum(name, value, TLS_VERSIONS),
  tls_max_version: (name, value) => decodeEnum(name, value, TLS_VERSIONS),
  insecure_tls: decodeBool,
  certificate: (name, value) => {
    const pem = decodeString(name, value);
    if (pem.trim() !== '') checkCertificate(name, pem);
    return pem;
  },
  client_tls_cert: (name, value) => {
    const pem = decodeString(name, value);
    if (pem.trim() !== '') checkCertificate(name, pem);
    return pem;
  },
  client_tls_key: (name, value) => {
    const pem = decodeString(name, value);
    if (pem.trim() !== '') {
      try {
        createPrivateKey(pem);
      } catch {
        throw badRequest(`invalid value for "${name}": not a PEM private key`);
      }
    }
    return pem;
  },
  binddn: text,
  bindpass: text,
  userdn: text,
  userattr: (name, value) => {
    const attr = decodeString(name, value, 256);
    if (!/^([A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)*)$/.test(attr)) {
      throw badRequest(`invalid value for "userattr": ${JSON.stringify(attr)} is not an attribute name`);
    }
    return attr;
  },
  discoverdn: decodeBool,
  deny_null_bind: decodeBool,
  upndomain: text,
  userfilter: (name, value) => checkTemplate(name, decodeString(name, value), ['UserAttr', 'Username']),
  anonymous_group_search: decodeBool,
  groupfilter: (name, value) => checkTemplate(name, decodeString(name, value), ['UserDN', 'Username']),
  groupdn: text,
  groupattr: (name, value) => {
    const attr = decodeString(name, value, 256);
    if (attr !== '' && !/^([A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)*)$/.test(attr)) {
      throw badRequest(`invalid value for "groupattr": ${JSON.stringify(attr)} is not an attribute name`);
    }
    return attr;
  },
  username_as_alias: decodeBool,
  token_ttl: decodeDuration,
  token_max_ttl: decodeDuration,
  token_policies: decodeList,
  token_bound_cidrs: decodeCidrs,
  token_explicit_max_ttl: decodeDuration,
  token_no_default_policy: decodeBool,
  token_num_uses: decodeCount,
  token_period: decodeDuration,
  token_type: (name, value) => decodeEnum(name, value, TOKEN_TYPES),
};

function checkCertificate(name: string, pem: string): void {
  try {
    new X509Certificate(pem);
  } catch {
    throw badRequest(`invalid value for "${name}": not an x509 PEM certificate`);
  }
}

function checkTemplate(name: string, template: string, variables: readonly string[]): string {
  const problem = template === '' ? undefined : templateProblem(template, variables);
  if (problem !== undefined) throw badRequest(`invalid value for "${name}": ${problem}`);
  return template;
}

/**
 * Merges a configuration write into the stored settings: parameters not sent keep their value.
 * Every parameter is decoded before anything is returned, so a bad one stores nothing.
 * @param current - The stored settings.
 * @param body - The parsed request body.
 * @returns The new settings.
 * @throws 400 naming the first bad or unknown parameter, or an inconsistent combination.
 */
export function applyConfigWrite(current: LdapSettings, body: unknown): LdapSettings {
  const params = withoutNullLists(bodyParameters(body, CONFIG_PARAMETERS), LIST_PARAMETERS);
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(params)) {
    next[name] = DECODERS[name as keyof LdapSettings](name, value);
  }
  const settings = next as unknown as LdapSettings;
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
