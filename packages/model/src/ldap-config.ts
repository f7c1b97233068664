/**
 * The LDAP auth method's configuration: the request that writes it, the stored form a read answers,
 * its defaults and the token types.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/** An integer number of seconds or a duration string such as `"90s"` or `"1h"`. */
const SecondsOrDuration = lazySchema(() => Type.Union([SafeInteger({ minimum: 0 }), Type.String()]));
/** A list, or the same list as one comma-delimited string. */
const ListOrCommaString = lazySchema(() => Type.Union([Type.Array(Type.String()), Type.String()]));
/** TLS versions accepted by `tls_min_version` and `tls_max_version`. */
const TlsVersion = lazySchema(() =>
  Type.Enum({ Tls10: 'tls10', Tls11: 'tls11', Tls12: 'tls12', Tls13: 'tls13' }),
);

/**
 * Token types of generated tokens (`token_type`).
 *
 * @since 0.1.0
 */
export const LdapTokenType = {
  /** Long-lived, renewable service tokens. */
  Service: 'service',
  /** Lightweight batch tokens. */
  Batch: 'batch',
  /** The mount's tuned default (normally `service`). */
  Default: 'default',
  /** Default, preferring service tokens (token-store roles). */
  DefaultService: 'default-service',
  /** Default, preferring batch tokens (token-store roles). */
  DefaultBatch: 'default-batch',
} as const;
/** One of the values of {@link LdapTokenType}. */
export type LdapTokenType = (typeof LdapTokenType)[keyof typeof LdapTokenType];

/**
 * Defaults of the LDAP configuration: the value a field has when it was never written.
 *
 * @since 0.1.0
 */
export const LdapConfigDefaults = {
  /** LDAP server. */
  url: 'ldap://127.0.0.1',
  /** Names are lower-cased for policy matching. */
  case_sensitive_names: false,
  /** Request timeout, in seconds. */
  request_timeout: 90,
  /** No StartTLS. */
  starttls: false,
  /** Minimum TLS version. */
  tls_min_version: 'tls12',
  /** Maximum TLS version. */
  tls_max_version: 'tls12',
  /** Certificates are verified. */
  insecure_tls: false,
  /** No CA certificate. */
  certificate: '',
  /** No client certificate. */
  client_tls_cert: '',
  /** No client key. */
  client_tls_key: '',
  /** No bind DN. */
  binddn: '',
  /** No bind password. */
  bindpass: '',
  /** No user search base. */
  userdn: '',
  /** Username attribute. */
  userattr: 'cn',
  /** No anonymous DN discovery. */
  discoverdn: false,
  /** Empty passwords are rejected. */
  deny_null_bind: true,
  /** No UPN domain. */
  upndomain: '',
  /** Default user filter (computed from `userattr`). */
  userfilter: '',
  /** Group searches use the bind credentials. */
  anonymous_group_search: false,
  /** Default group filter. */
  groupfilter: '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))',
  /** No group search base. */
  groupdn: '',
  /** Group attribute (behaves as `cn`). */
  groupattr: '',
  /** The alias name is not the login username. */
  username_as_alias: false,
  /** Token lifetime: the system default (seconds). */
  token_ttl: 0,
  /** Maximum token lifetime: the system default (seconds). */
  token_max_ttl: 0,
  /** No policies on tokens. */
  token_policies: [] as readonly string[],
  /** No CIDR restriction. */
  token_bound_cidrs: [] as readonly string[],
  /** No hard lifetime cap (seconds). */
  token_explicit_max_ttl: 0,
  /** The `default` policy is added. */
  token_no_default_policy: false,
  /** Unlimited uses. */
  token_num_uses: 0,
  /** No period (seconds). */
  token_period: 0,
  /** The mount's default token type. */
  token_type: '',
} as const;

/**
 * Body of `POST /auth/ldap/config`: every field optional; absent fields keep their current value (or the
 * default of {@link LdapConfigDefaults} when never set). No other parameter: an unknown one is a problem
 * (the sample server answers it with a 400 naming it, and the secrets client refuses it before sending).
 *
 * @since 0.1.0
 */
export const LdapConfigRequest = lazySchema(() =>
  Type.Object(
    {
      /** LDAP server URL; several, comma-separated, are tried in order. Default `ldap://127.0.0.1`. */
      url: Type.Optional(Type.String()),
      /** When `false`, user and group names are lower-cased for policy matching. Default `false`. */
      case_sensitive_names: Type.Optional(Type.Boolean()),
      /** Timeout of requests to the server: seconds, or a duration string such as `"90s"`. Default 90. */
      request_timeout: Type.Optional(SecondsOrDuration),
      /** Issue StartTLS after connecting unencrypted. Default `false`. */
      starttls: Type.Optional(Type.Boolean()),
      /** Minimum TLS version: `tls10`, `tls11`, `tls12`, `tls13`. Default `tls12`. */
      tls_min_version: Type.Optional(TlsVersion),
      /** Maximum TLS version: `tls10`, `tls11`, `tls12`, `tls13`. Default `tls12`. */
      tls_max_version: Type.Optional(TlsVersion),
      /** Skip verification of the server certificate. Default `false`. */
      insecure_tls: Type.Optional(Type.Boolean()),
      /** CA certificate, x509 PEM. Default `""`. */
      certificate: Type.Optional(Type.String()),
      /** Client certificate, x509 PEM. Default `""`. */
      client_tls_cert: Type.Optional(Type.String()),
      /** Client key, x509 PEM. Default `""`. */
      client_tls_key: Type.Optional(Type.String()),
      /** Distinguished name bound for the user search. Default `""`. */
      binddn: Type.Optional(Type.String()),
      /** Password of `binddn` (never returned by reads). Default `""`. */
      bindpass: Type.Optional(Type.String()),
      /** Base DN of the user search. Default `""`. */
      userdn: Type.Optional(Type.String()),
      /** Attribute matched against the login username. Default `cn`. */
      userattr: Type.Optional(Type.String()),
      /** Discover the user's bind DN with an anonymous bind. Default `false`. */
      discoverdn: Type.Optional(Type.Boolean()),
      /** Reject empty passwords. Default `true`. */
      deny_null_bind: Type.Optional(Type.Boolean()),
      /** Domain of the user principal name `<username>@<upndomain>`. Default `""`. */
      upndomain: Type.Optional(Type.String()),
      /** User search template (variables `UserAttr`, `Username`); `""` = `({{.UserAttr}}={{.Username}})`. */
      userfilter: Type.Optional(Type.String()),
      /** Use anonymous binds for group searches. Default `false`. */
      anonymous_group_search: Type.Optional(Type.Boolean()),
      /** Group membership query template (variables `UserDN`, `Username`). Default: see {@link LdapConfigDefaults}. */
      groupfilter: Type.Optional(Type.String()),
      /** Base of the group search. Default `""`. */
      groupdn: Type.Optional(Type.String()),
      /** Attribute listing groups on returned objects; `""` behaves as `cn`. */
      groupattr: Type.Optional(Type.String()),
      /** Use the login username as the alias name. Default `false`. */
      username_as_alias: Type.Optional(Type.Boolean()),
      /** Incremental lifetime of generated tokens: seconds or a duration string. Default 0 (system default). */
      token_ttl: Type.Optional(SecondsOrDuration),
      /** Maximum lifetime of generated tokens: seconds or a duration string. Default 0 (system default). */
      token_max_ttl: Type.Optional(SecondsOrDuration),
      /** Policies on generated tokens: a list or a comma-delimited string. Default none. */
      token_policies: Type.Optional(ListOrCommaString),
      /** CIDR blocks allowed to authenticate: a list or a comma-delimited string. Default none. */
      token_bound_cidrs: Type.Optional(ListOrCommaString),
      /** Hard cap of token lifetime: seconds or a duration string. Default 0 (none). */
      token_explicit_max_ttl: Type.Optional(SecondsOrDuration),
      /** Do not add the `default` policy. Default `false`. */
      token_no_default_policy: Type.Optional(Type.Boolean()),
      /** Uses allowed per token; 0 (default) = unlimited. */
      token_num_uses: Type.Optional(SafeInteger({ minimum: 0 })),
      /** Period of periodic tokens: seconds or a duration string. Default 0 (not periodic). */
      token_period: Type.Optional(SecondsOrDuration),
      /** Token type; see {@link LdapTokenType}; `""` (default) = the mount's default. */
      token_type: Type.Optional(Type.Union([Type.Enum(LdapTokenType), Type.Literal('')])),
    },
    { additionalProperties: false },
  ),
);
/** A value matching the {@link LdapConfigRequest} schema. */
export type LdapConfigRequest = Static<typeof LdapConfigRequest>;

/**
 * The configuration as read (`data` of `GET /auth/ldap/config`). `bindpass` is always `""`. The spec lists
 * 17 fields; servers also return the others (durations in seconds, lists as arrays), optional here.
 *
 * @since 0.1.0
 */
export const LdapConfig = lazySchema(() =>
  Type.Object({
    /** Bind DN. */
    binddn: Type.String(),
    /** Always `""`: the password is never returned. */
    bindpass: Type.String(),
    /** CA certificate, x509 PEM; `""` when none. */
    certificate: Type.String(),
    /** Whether empty passwords are rejected. */
    deny_null_bind: Type.Boolean(),
    /** Whether the bind DN is discovered anonymously. */
    discoverdn: Type.Boolean(),
    /** Group attribute; `""` behaves as `cn`. */
    groupattr: Type.String(),
    /** Base of the group search. */
    groupdn: Type.String(),
    /** Group membership query template. */
    groupfilter: Type.String(),
    /** Whether certificate verification is skipped. */
    insecure_tls: Type.Boolean(),
    /** Whether StartTLS is issued. */
    starttls: Type.Boolean(),
    /** Maximum TLS version. */
    tls_max_version: Type.String(),
    /** Minimum TLS version. */
    tls_min_version: Type.String(),
    /** UPN domain; `""` when none. */
    upndomain: Type.String(),
    /** LDAP server URL(s). */
    url: Type.String(),
    /** Whether the login username is the alias name. */
    username_as_alias: Type.Boolean(),
    /** Username attribute. */
    userattr: Type.String(),
    /** Base DN of the user search. */
    userdn: Type.String(),
    /** Whether user and group names keep their case for policy matching (absent on servers that omit it). */
    case_sensitive_names: Type.Optional(Type.Boolean()),
    /** Timeout of requests to the directory, in seconds. */
    request_timeout: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Client certificate, x509 PEM; `""` when none. */
    client_tls_cert: Type.Optional(Type.String()),
    /** Client key: `""` (never returned by the sked server; some servers echo it). */
    client_tls_key: Type.Optional(Type.String()),
    /** User search template; `""` = the default. */
    userfilter: Type.Optional(Type.String()),
    /** Whether group searches bind anonymously. */
    anonymous_group_search: Type.Optional(Type.Boolean()),
    /** Incremental lifetime of generated tokens, in seconds (0 = system default). */
    token_ttl: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Maximum lifetime of generated tokens, in seconds (0 = system default). */
    token_max_ttl: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Policies put on generated tokens. */
    token_policies: Type.Optional(Type.Array(Type.String())),
    /** CIDR blocks allowed to log in and to use the tokens. */
    token_bound_cidrs: Type.Optional(Type.Array(Type.String())),
    /** Hard cap of token lifetime, in seconds (0 = none). */
    token_explicit_max_ttl: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Whether the `default` policy is left out. */
    token_no_default_policy: Type.Optional(Type.Boolean()),
    /** Uses allowed per token (0 = unlimited). */
    token_num_uses: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Period of periodic tokens, in seconds (0 = not periodic). */
    token_period: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Token type; `""` = the mount's default. */
    token_type: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link LdapConfig} schema. */
export type LdapConfig = Static<typeof LdapConfig>;
