/**
 * The secrets service's LDAP auth method: groups, users, login, and the response envelope of every
 * answer.
 *
 * @packageDocumentation
 */
import Type, {
  type Static,
  type TArray,
  type TBoolean,
  type TInteger,
  type TNull,
  type TObject,
  type TSchema,
  type TString,
  type TUnion,
} from 'typebox';
import { Nullable, SafeInteger } from './internal/schema.js';
import { LdapConfig } from './ldap-config.js';
import { lazySchema } from './internal/lazy.js';

/**
 * A group as read: its policies.
 *
 * @since 0.1.0
 */
export const LdapGroup = lazySchema(() =>
  Type.Object({
    /** Policy names. */
    policies: Type.Array(Type.String()),
  }),
);
/** A value matching the {@link LdapGroup} schema. */
export type LdapGroup = Static<typeof LdapGroup>;

/**
 * Body of `POST /auth/ldap/groups/:name`.
 *
 * @since 0.1.0
 */
export const LdapGroupWriteRequest = lazySchema(() =>
  Type.Object({
    /** Comma-separated policy names. Default `""` (none). */
    policies: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link LdapGroupWriteRequest} schema. */
export type LdapGroupWriteRequest = Static<typeof LdapGroupWriteRequest>;

/**
 * A user as read: policies and groups.
 *
 * @since 0.1.0
 */
export const LdapUser = lazySchema(() =>
  Type.Object({
    /** Policy names. */
    policies: Type.Array(Type.String()),
    /** Comma-separated group names; `""` when none. */
    groups: Type.String(),
  }),
);
/** A value matching the {@link LdapUser} schema. */
export type LdapUser = Static<typeof LdapUser>;

/**
 * Body of `POST /auth/ldap/users/:username`.
 *
 * @since 0.1.0
 */
export const LdapUserWriteRequest = lazySchema(() =>
  Type.Object({
    /** Comma-separated policy names. Default `""` (none). */
    policies: Type.Optional(Type.String()),
    /** Comma-separated group names. Default `""` (none). */
    groups: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link LdapUserWriteRequest} schema. */
export type LdapUserWriteRequest = Static<typeof LdapUserWriteRequest>;

/**
 * Body of `POST /auth/ldap/login/:username`.
 *
 * @since 0.1.0
 */
export const LdapLoginRequest = lazySchema(() =>
  Type.Object({
    /** The user's password. Required. */
    password: Type.String(),
  }),
);
/** A value matching the {@link LdapLoginRequest} schema. */
export type LdapLoginRequest = Static<typeof LdapLoginRequest>;

/**
 * The `auth` object of a successful login.
 *
 * @since 0.1.0
 */
export const LdapAuth = lazySchema(() =>
  Type.Object({
    /** The client token issued. */
    client_token: Type.String(),
    /** Policies attached to the token. */
    policies: Type.Array(Type.String()),
    /** Metadata of the login. */
    metadata: Type.Object({
      /** The username logged in with. */
      username: Type.String(),
    }),
    /** Lifetime of the token, in seconds. */
    lease_duration: SafeInteger({ minimum: 0 }),
    /** Whether the token can be renewed. */
    renewable: Type.Boolean(),
    /** The policies of the token itself (the same as `policies` for this method). */
    token_policies: Type.Optional(Type.Array(Type.String())),
    /** `service` or `batch`. */
    token_type: Type.Optional(Type.String()),
    /** Whether the token has no parent (always `true` for a login). */
    orphan: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link LdapAuth} schema. */
export type LdapAuth = Static<typeof LdapAuth>;

/**
 * Schema type built by {@link SecretsEnvelope}.
 *
 * @since 0.1.0
 */
export type SecretsEnvelopeSchema<D extends TSchema, A extends TSchema> = TObject<{
  /** Authentication result (login) or `null`. */
  auth: A;
  /** Warnings, or `null` when none. */
  warnings: TUnion<[TArray<TString>, TNull]>;
  /** Response-wrapping information, or `null` when the response is not wrapped. */
  wrap_info: TUnion<[TObject<{}>, TNull]>;
  /** The payload (or `null` for a login). */
  data: D;
  /** Lease duration in seconds (0 when there is no lease). */
  lease_duration: TInteger;
  /** Whether the lease is renewable. */
  renewable: TBoolean;
  /** Lease ID; `""` when there is no lease. */
  lease_id: TString;
}>;

/**
 * Builds the schema of the secrets service's response envelope around a `data` schema.
 *
 * @param data - Schema of the `data` member.
 * @param auth - Schema of the `auth` member (`null` for reads and lists).
 * @returns The envelope schema `{ auth, warnings, wrap_info, data, lease_duration, renewable, lease_id }`.
 * @example
 * ```ts
 * const LdapGroupResponse = SecretsEnvelope(LdapGroup, Type.Null());
 * ```
 * @since 0.1.0
 */
export function SecretsEnvelope<D extends TSchema, A extends TSchema>(
  data: D,
  auth: A,
): SecretsEnvelopeSchema<D, A> {
  return Type.Object({
    /** Authentication result (login) or `null`. */
    auth,
    /** Warnings, or `null` when none. */
    warnings: Nullable(Type.Array(Type.String())),
    /** Response-wrapping information, or `null` when the response is not wrapped. */
    wrap_info: Nullable(Type.Object({})),
    /** The payload (or `null` for a login). */
    data,
    /** Lease duration in seconds (0 when there is no lease). */
    lease_duration: SafeInteger({ minimum: 0 }),
    /** Whether the lease is renewable. */
    renewable: Type.Boolean(),
    /** Lease ID; `""` when there is no lease. */
    lease_id: Type.String(),
  });
}

/**
 * Response of `GET /auth/ldap/config`.
 *
 * @since 0.1.0
 */
export const LdapConfigResponse = lazySchema(() => SecretsEnvelope(LdapConfig, Type.Null()));
/** A value matching the {@link LdapConfigResponse} schema. */
export type LdapConfigResponse = Static<typeof LdapConfigResponse>;

/**
 * Response of `GET /auth/ldap/groups/:name`.
 *
 * @since 0.1.0
 */
export const LdapGroupResponse = lazySchema(() => SecretsEnvelope(LdapGroup, Type.Null()));
/** A value matching the {@link LdapGroupResponse} schema. */
export type LdapGroupResponse = Static<typeof LdapGroupResponse>;

/**
 * Response of `GET /auth/ldap/users/:username`.
 *
 * @since 0.1.0
 */
export const LdapUserResponse = lazySchema(() => SecretsEnvelope(LdapUser, Type.Null()));
/** A value matching the {@link LdapUserResponse} schema. */
export type LdapUserResponse = Static<typeof LdapUserResponse>;

/**
 * Response of `LIST /auth/ldap/groups` and `LIST /auth/ldap/users`.
 *
 * @since 0.1.0
 */
export const LdapListResponse = lazySchema(() =>
  SecretsEnvelope(
    Type.Object({
      /** Group names or usernames. */
      keys: Type.Array(Type.String()),
    }),
    Type.Null(),
  ),
);
/** A value matching the {@link LdapListResponse} schema. */
export type LdapListResponse = Static<typeof LdapListResponse>;

/**
 * Response of `POST /auth/ldap/login/:username`: `auth` holds the token, `data` is `null`.
 *
 * @since 0.1.0
 */
export const LdapLoginResponse = lazySchema(() => SecretsEnvelope(Type.Null(), LdapAuth));
/** A value matching the {@link LdapLoginResponse} schema. */
export type LdapLoginResponse = Static<typeof LdapLoginResponse>;
