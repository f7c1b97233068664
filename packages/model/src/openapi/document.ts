/**
 * The OpenAPI 3.1 description of the three APIs, generated from the model's schemas and the
 * routing tables of this folder.
 *
 * @packageDocumentation
 */
import { ComponentRegistry, modelSchemas, type JsonSchema } from './components.js';
import { schedulerService } from './scheduler.js';
import { meshService, secretsService } from './secrets-mesh.js';
import type { EndpointSpec, ServiceSpec, WebSocketSpec } from './types.js';

/** An OpenAPI 3.1 document as plain JSON. */
export interface OpenApiDocument {
  /** The OpenAPI version the document follows. */
  readonly openapi: '3.1.1';
  /** Title, version, description and license. */
  readonly info: Record<string, unknown>;
  /** Operations by path (`/v1/job/{job_id}`) and method (`get`, `post`, ...). */
  readonly paths: Record<string, Record<string, unknown>>;
  /** `schemas` (the model's), `responses` (error answers) and `securitySchemes` (the token headers). */
  readonly components: Record<string, unknown>;
  /** Other top-level fields: `jsonSchemaDialect`, `servers`, `tags`. */
  readonly [field: string]: unknown;
}

/** The services the description covers, in order. */
export const openApiServices: readonly ServiceSpec[] = [schedulerService, secretsService, meshService];

const reasons: Record<number, string> = {
  200: 'Success',
  101: 'Switching Protocols: the WebSocket is open',
  204: 'Success, no body',
  400: 'Bad request: a parameter or the body is invalid (the message names it)',
  403: 'Missing, unknown or insufficient token',
  404: 'Unknown resource',
  405: 'The path exists, the method does not',
  413: 'The body is larger than the server accepts',
};

function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
}

function queryParameters(service: ServiceSpec, endpoint: EndpointSpec): JsonSchema[] {
  const names = [
    ...service.common,
    ...(endpoint.blocking === true ? service.blockingQuery : []),
    ...(endpoint.paginated === true ? service.pagingQuery : []),
    ...(endpoint.query ?? []),
  ];
  return [...new Set(names)].map((name) => {
    const spec = service.parameters[name];
    if (spec === undefined) throw new Error(`OpenAPI: ${service.tag} has no query parameter "${name}"`);
    const parameter: JsonSchema = { name, in: 'query', description: spec.description, schema: spec.schema };
    if (endpoint.requiredQuery?.includes(name) === true) parameter['required'] = true;
    if ((spec.schema as { type?: unknown }).type === 'array') {
      parameter['style'] = 'form';
      parameter['explode'] = true;
    }
    return parameter;
  });
}

function headerObjects(headers: ServiceSpec['readHeaders'], required: boolean): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, spec]) => [
      name,
      { description: spec.description, required, schema: spec.schema },
    ]),
  );
}

function operation(
  service: ServiceSpec,
  endpoint: EndpointSpec,
  method: string,
  registry: ComponentRegistry,
): JsonSchema {
  const status = endpoint.status ?? (endpoint.response === undefined ? 200 : 200);
  const headers: Record<string, JsonSchema> = {
    ...(endpoint.blocking === true ? headerObjects(service.readHeaders, true) : {}),
    ...(endpoint.responseHeaders === undefined ? {} : headerObjects(endpoint.responseHeaders, false)),
  };
  if (endpoint.paginated === true && service.nextTokenHeader !== undefined) {
    headers[service.nextTokenHeader] = {
      description: 'Present while another page follows: pass it as `next_token`.',
      required: false,
      schema: { type: 'string' },
    };
  }
  const success: JsonSchema = { description: reasons[status] ?? 'Success' };
  if (Object.keys(headers).length > 0) success['headers'] = headers;
  if (endpoint.response !== undefined) {
    const schema = registry.ref(endpoint.response);
    success['content'] = { 'application/json': { schema } };
    if (endpoint.transport === 'ndjson') {
      success['description'] =
        'Success: newline-delimited JSON, one such object per line, open until the client closes it';
    }
  }
  const responses: Record<string, JsonSchema> =
    endpoint.websocket === undefined
      ? { [String(status)]: success }
      : { '101': switchingProtocols(endpoint.websocket) };
  for (const code of [...new Set([...service.errors, ...(endpoint.errors ?? [])])].sort((a, b) => a - b)) {
    responses[String(code)] = { $ref: `#/components/responses/${service.tag}Error${code}` };
  }
  const out: JsonSchema = {
    operationId: method === endpoint.methods[0] ? endpoint.operationId : `${endpoint.operationId}_${method}`,
    summary: endpoint.summary,
    tags: [service.tag],
    servers: [service.server],
    security: (endpoint.security ?? service.security).map((name) => ({ [name]: [] })),
    parameters: [
      ...pathParameters(endpoint.path),
      ...queryParameters(service, endpoint),
      ...(endpoint.websocket === undefined ? [] : upgradeParameters()),
    ],
    responses,
  };
  const about = [
    ...(endpoint.acl === undefined ? [] : [`Capability: \`${endpoint.acl}\`.`]),
    ...(endpoint.security?.length === 0 ? ['No token needed.'] : []),
    ...(endpoint.websocket === undefined ? [] : [`WebSocket (RFC 6455). ${endpoint.websocket.description}`]),
  ];
  if (about.length > 0) out['description'] = about.join(' ');
  if (endpoint.websocket !== undefined) {
    out['x-websocket'] = {
      protocol: 'RFC 6455, JSON text frames',
      clientFrame: registry.ref(endpoint.websocket.clientFrame),
      serverFrame: registry.ref(endpoint.websocket.serverFrame),
      closeCodes: { ...endpoint.websocket.closeCodes },
    };
  }
  if (endpoint.body !== undefined) {
    out['requestBody'] = {
      required: endpoint.bodyRequired ?? true,
      content: { 'application/json': { schema: registry.ref(endpoint.body) } },
    };
  }
  return out;
}

/** A required request header of the WebSocket handshake (RFC 6455 section 4.1). */
function upgradeHeader(name: string, description: string, schema: JsonSchema): JsonSchema {
  return { name, in: 'header', required: true, description, schema };
}

/** The request headers that make a `GET` a WebSocket opening handshake. */
function upgradeParameters(): JsonSchema[] {
  return [
    upgradeHeader('Connection', 'Must include the token `Upgrade`.', {
      type: 'string',
      pattern: '[Uu][Pp][Gg][Rr][Aa][Dd][Ee]',
    }),
    upgradeHeader('Upgrade', '`websocket` (case-insensitive).', {
      type: 'string',
      pattern: '^[Ww][Ee][Bb][Ss][Oo][Cc][Kk][Ee][Tt]$',
    }),
    upgradeHeader('Sec-WebSocket-Key', 'A random 16-byte value, base64-encoded.', {
      type: 'string',
      pattern: '^[A-Za-z0-9+/]{22}==$',
    }),
    upgradeHeader('Sec-WebSocket-Version', 'The protocol version: `13`.', { type: 'string', enum: ['13'] }),
  ];
}

/** The `101 Switching Protocols` answer of a WebSocket endpoint, with the handshake headers. */
function switchingProtocols(websocket: WebSocketSpec): JsonSchema {
  const header = (description: string, schema: JsonSchema): JsonSchema => ({
    description,
    required: true,
    schema,
  });
  return {
    description: `${reasons[101]}. The connection now carries WebSocket frames (see \`x-websocket\`): ${websocket.description}`,
    headers: {
      Upgrade: header('`websocket`.', { type: 'string', pattern: '^[Ww][Ee][Bb][Ss][Oo][Cc][Kk][Ee][Tt]$' }),
      Connection: header('`Upgrade`.', { type: 'string', pattern: '[Uu][Pp][Gg][Rr][Aa][Dd][Ee]' }),
      'Sec-WebSocket-Accept': header(
        'Base64 of the SHA-1 of the request key and the protocol GUID (RFC 6455 section 4.2.2).',
        { type: 'string', pattern: '^[A-Za-z0-9+/]{27}=$' },
      ),
    },
  };
}

function errorResponses(service: ServiceSpec): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const codes = new Set([...service.errors, ...service.endpoints.flatMap((e) => e.errors ?? [])]);
  for (const code of [...codes].sort((a, b) => a - b)) {
    out[`${service.tag}Error${code}`] = {
      description: `${reasons[code] ?? 'Error'} (${service.tag})`,
      content: {
        [service.error.mediaType]: { schema: service.error.schema, example: service.error.example },
      },
    };
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 description of the scheduling service, the secrets service's LDAP auth
 * method and the mesh service's peering API: every endpoint with its path and query parameters,
 * request and response bodies (the model's schemas, each once under `components.schemas`),
 * response headers (`X-Svc-Index`, `X-Svc-NextToken`, ...), error answers and token schemes. Each
 * operation names the server (listener) of its API.
 *
 * @returns A new document (plain JSON; `JSON.stringify` it to serve it).
 * @example
 * ```ts
 * const document = openApiDocument();
 * console.log(Object.keys(document.paths).length, 'paths'); // every route of the three APIs
 * ```
 * @since 0.1.0
 */
export function openApiDocument(): OpenApiDocument {
  const registry = new ComponentRegistry(modelSchemas());
  const paths: Record<string, Record<string, unknown>> = {};
  for (const service of openApiServices) {
    for (const endpoint of service.endpoints) {
      const item = (paths[endpoint.path] ??= {});
      for (const method of endpoint.methods) {
        if (method in item)
          throw new Error(`OpenAPI: ${method.toUpperCase()} ${endpoint.path} is declared twice`);
        item[method] = operation(service, endpoint, method, registry);
      }
    }
  }
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'sked: scheduling service, secrets service LDAP auth method, mesh service peering',
      version: '1',
      description:
        'Generated by @sked/model from the same schemas the sample server validates with. Each API is served by its own listener (see the servers of each operation). Errors: plain text on the scheduling and mesh services, `{"errors": [...]}` on the secrets service.',
      license: { name: 'MPL-2.0', identifier: 'MPL-2.0' },
    },
    servers: openApiServices.map((service) => service.server),
    tags: openApiServices.map((service) => ({ name: service.tag, description: service.description })),
    paths,
    components: {
      schemas: registry.schemas(),
      responses: Object.assign({}, ...openApiServices.map(errorResponses)) as Record<string, JsonSchema>,
      securitySchemes: {
        svcToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Svc-Token',
          description: 'ACL token secret (scheduling service).',
        },
        secretsToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Secrets-Token',
          description: 'Token of the secrets service.',
        },
        meshToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Mesh-Token',
          description: 'ACL token of the mesh service.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: '`Authorization: Bearer <token>` instead of the service header.',
        },
      },
    },
  };
}
