/**
 * The routing tables of the secrets service's LDAP auth method and of the mesh service's cluster
 * peering API (spec document 3), with the model's schemas for their bodies. Conventions follow
 * `design/BEHAVIOUR.md`: the secrets service answers errors as `{"errors": [...]}` and accepts
 * `LIST` also as `GET ...?list=true` (the form OpenAPI can describe); the mesh service answers
 * errors as plain text.
 *
 * @packageDocumentation
 */
import Type from 'typebox';
import { SafeInteger } from '../internal/schema.js';
import {
  SecretsEnvelope,
  LdapConfigResponse,
  LdapGroupResponse,
  LdapGroupWriteRequest,
  LdapListResponse,
  LdapLoginRequest,
  LdapLoginResponse,
  LdapUserResponse,
  LdapUserWriteRequest,
} from '../ldap.js';
import { LdapConfigRequest } from '../ldap-config.js';
import {
  Peering,
  PeeringEstablishRequest,
  PeeringEstablishResponse,
  PeeringGenerateTokenRequest,
  PeeringGenerateTokenResponse,
} from '../peering.js';
import { blockingReadHeaders, type EndpointSpec, type ServiceSpec } from './types.js';

const mount = '/v1/auth/ldap';

/** `data` of the token self-lookup (BEHAVIOUR.md): what a token may do and until when. */
const TokenLookupData = Type.Object({
  policies: Type.Array(Type.String()),
  meta: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
  display_name: Type.String(),
  path: Type.String(),
  ttl: SafeInteger({ minimum: 0 }),
  creation_ttl: SafeInteger({ minimum: 0 }),
  expire_time: Type.Union([Type.String(), Type.Null()]),
  creation_time: Type.Optional(SafeInteger({ minimum: 0 })),
  explicit_max_ttl: SafeInteger({ minimum: 0 }),
  period: SafeInteger({ minimum: 0 }),
  num_uses: SafeInteger({ minimum: 0 }),
  bound_cidrs: Type.Array(Type.String()),
  renewable: Type.Boolean(),
  type: Type.String(),
  orphan: Type.Boolean(),
});

const ldapEndpoints: EndpointSpec[] = [
  {
    methods: ['post', 'put'],
    path: `${mount}/config`,
    operationId: 'writeLdapConfig',
    summary: 'Configure the LDAP auth method (fields not sent keep their value)',
    body: LdapConfigRequest,
    status: 204,
  },
  {
    methods: ['get'],
    path: `${mount}/config`,
    operationId: 'readLdapConfig',
    summary: 'Read the configuration (`bindpass` is never returned)',
    response: LdapConfigResponse,
  },
  {
    methods: ['get'],
    path: `${mount}/groups`,
    operationId: 'listLdapGroups',
    summary: 'List mapped groups (`LIST`, or `GET` with `list=true`)',
    query: ['list'],
    requiredQuery: ['list'],
    response: LdapListResponse,
    errors: [404],
  },
  {
    methods: ['get'],
    path: `${mount}/groups/{name}`,
    operationId: 'readLdapGroup',
    summary: "Read a group's policies",
    response: LdapGroupResponse,
    errors: [404],
  },
  {
    methods: ['post', 'put'],
    path: `${mount}/groups/{name}`,
    operationId: 'writeLdapGroup',
    summary: "Create or update a group's policies",
    body: LdapGroupWriteRequest,
    status: 204,
  },
  {
    methods: ['delete'],
    path: `${mount}/groups/{name}`,
    operationId: 'deleteLdapGroup',
    summary: 'Delete a group mapping',
    status: 204,
  },
  {
    methods: ['get'],
    path: `${mount}/users`,
    operationId: 'listLdapUsers',
    summary: 'List mapped users (`LIST`, or `GET` with `list=true`)',
    query: ['list'],
    requiredQuery: ['list'],
    response: LdapListResponse,
    errors: [404],
  },
  {
    methods: ['get'],
    path: `${mount}/users/{username}`,
    operationId: 'readLdapUser',
    summary: "Read a user's policies and groups",
    response: LdapUserResponse,
    errors: [404],
  },
  {
    methods: ['post', 'put'],
    path: `${mount}/users/{username}`,
    operationId: 'writeLdapUser',
    summary: "Create or update a user's policies and groups",
    body: LdapUserWriteRequest,
    status: 204,
  },
  {
    methods: ['delete'],
    path: `${mount}/users/{username}`,
    operationId: 'deleteLdapUser',
    summary: 'Delete a user mapping',
    status: 204,
  },
  {
    methods: ['get', 'post'],
    path: '/v1/auth/token/lookup-self',
    operationId: 'lookupSelfToken',
    summary: 'Look up the token of the request (`X-Secrets-Token`)',
    response: SecretsEnvelope(TokenLookupData, Type.Null()),
  },
  {
    methods: ['post', 'put'],
    path: `${mount}/login/{username}`,
    operationId: 'loginLdap',
    summary: 'Log in with a directory password; answers a client token',
    security: [],
    body: LdapLoginRequest,
    response: LdapLoginResponse,
  },
];

/** The secrets service's LDAP auth method, mounted at `auth/ldap` (default port 8200). */
export const secretsService: ServiceSpec = {
  tag: 'secrets',
  description:
    "The secrets service's LDAP auth method (mounted at auth/ldap; another mount changes the path).",
  server: { url: 'http://127.0.0.1:8200', description: 'The secrets service (sked-server --secrets-port)' },
  security: ['secretsToken'],
  error: {
    mediaType: 'application/json',
    schema: {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', items: { type: 'string' } } },
    },
    example: { errors: ['permission denied'] },
  },
  readHeaders: {},
  common: [],
  blockingQuery: [],
  pagingQuery: [],
  parameters: {
    list: {
      description: 'List the keys (what the `LIST` verb does).',
      schema: { type: 'string', enum: ['true'] },
    },
  },
  errors: [400, 403, 405],
  endpoints: ldapEndpoints,
};

const peeringEndpoints: EndpointSpec[] = [
  {
    methods: ['post'],
    path: '/v1/peering/token',
    operationId: 'generatePeeringToken',
    summary: 'Generate a peering token for a peer cluster',
    body: PeeringGenerateTokenRequest,
    response: PeeringGenerateTokenResponse,
    acl: 'peering:write',
  },
  {
    methods: ['post'],
    path: '/v1/peering/establish',
    operationId: 'establishPeering',
    summary: 'Establish a peering with the token of another cluster',
    body: PeeringEstablishRequest,
    response: PeeringEstablishResponse,
    acl: 'peering:write',
  },
  {
    methods: ['get'],
    path: '/v1/peering/{name}',
    operationId: 'readPeering',
    summary: 'Read a peering',
    query: ['partition'],
    response: Peering,
    blocking: true,
    acl: 'peering:read',
    errors: [404],
  },
  {
    methods: ['delete'],
    path: '/v1/peering/{name}',
    operationId: 'deletePeering',
    summary: 'Delete a peering (idempotent; it becomes TERMINATED, then goes)',
    query: ['partition'],
    acl: 'peering:write',
  },
  {
    methods: ['get'],
    path: '/v1/peerings',
    operationId: 'listPeerings',
    summary: 'List peerings',
    query: ['partition'],
    response: Type.Array(Peering),
    blocking: true,
    acl: 'peering:read',
    responseHeaders: {
      'X-Mesh-Results-Filtered-By-ACLs': {
        description: '`true` when peerings the token may not read were left out.',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  },
];

/** The mesh service's cluster peering API (default port 8500). */
export const meshService: ServiceSpec = {
  tag: 'mesh',
  description: "The mesh service's cluster peering API.",
  server: { url: 'http://127.0.0.1:8500', description: 'The mesh service (sked-server --mesh-port)' },
  security: ['meshToken', 'bearer'],
  error: { mediaType: 'text/plain', schema: { type: 'string' }, example: 'Peering not found for "east"' },
  readHeaders: blockingReadHeaders('X-Mesh'),
  common: [],
  blockingQuery: ['index', 'wait'],
  pagingQuery: [],
  parameters: {
    partition: {
      description: 'Admin partition (edition-restricted; default `default`).',
      schema: { type: 'string' },
    },
    index: {
      description: 'Blocking query: wait until the index passes this value.',
      schema: { type: 'integer', minimum: 0 },
    },
    wait: { description: 'Longest blocking time, e.g. `10s`.', schema: { type: 'string' } },
  },
  errors: [400, 403],
  endpoints: peeringEndpoints,
};
