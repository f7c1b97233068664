/**
 * Checks real answers of the sample server against its OpenAPI description: finds the operation
 * for a method and a concrete path, then validates the status, the media type, the body (with
 * Ajv's JSON Schema 2020-12, the dialect of OpenAPI 3.1) and the headers the description requires.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** An answer as it came off the wire. */
export interface RecordedExchange {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

type Responses = Record<
  string,
  {
    $ref?: string;
    headers?: Record<string, { required?: boolean; schema: unknown }>;
    content?: Record<string, unknown>;
  }
>;
type Operation = {
  operationId: string;
  responses: Responses;
  'x-websocket'?: { closeCodes: Record<string, string> };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, unknown> }> };
};

const escapePointer = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** Validates exchanges against one OpenAPI document. */
export class OpenApiChecker {
  readonly #document: Document;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #routes: { method: string; template: string; pattern: RegExp; operation: Operation }[] = [];
  /** Operation ids that answered at least once, with the statuses seen. */
  readonly covered = new Map<string, Set<number>>();

  constructor(document: unknown) {
    this.#document = document as Document;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    this.#ajv.addSchema(document as object, 'openapi.json');
    for (const [template, item] of Object.entries(this.#document.paths)) {
      const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`);
      for (const [method, operation] of Object.entries(item)) {
        this.#routes.push({ method, template, pattern, operation });
      }
    }
    // literal paths before templated ones (/v1/jobs/parse before /v1/job/{job_id})
    this.#routes.sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
  }

  /** The operation for a method and a concrete path, or undefined. */
  find(method: string, path: string): { template: string; operation: Operation } | undefined {
    const route = this.#routes.find((r) => r.method === method.toLowerCase() && r.pattern.test(path));
    return route === undefined ? undefined : { template: route.template, operation: route.operation };
  }

  #validator(pointer: string): ValidateFunction {
    let validator = this.#validators.get(pointer);
    if (validator === undefined) {
      validator = this.#ajv.compile({ $ref: `openapi.json#${pointer}` });
      this.#validators.set(pointer, validator);
    }
    return validator;
  }

  /**
   * Every way a WebSocket session departs from the operation's `x-websocket` extension: each server
   * frame must match its `serverFrame` schema and the close code be one it lists.
   */
  webSocketProblems(
    exchange: Pick<RecordedExchange, 'method' | 'path'>,
    session: RecordedWebSocket,
  ): string[] {
    const where = `${exchange.method} ${exchange.path} (WebSocket)`;
    const found = this.find(exchange.method, exchange.path);
    const described = found?.operation['x-websocket'];
    if (found === undefined || described === undefined)
      return [`${where}: no x-websocket in the description`];
    const pointer = `/paths/${escapePointer(found.template)}/${exchange.method.toLowerCase()}/x-websocket/serverFrame`;
    const validate = this.#validator(pointer);
    const problems = session.frames.flatMap((frame) =>
      validate(frame)
        ? []
        : [`${where}: frame ${JSON.stringify(frame)}: ${this.#ajv.errorsText(validate.errors)}`],
    );
    if (!(String(session.closeCode) in described.closeCodes)) {
      problems.push(
        `${where}: close code ${session.closeCode}, described: ${Object.keys(described.closeCodes).join(', ')}`,
      );
    }
    return problems;
  }

  /**
   * Every way the exchange departs from the description (empty when it conforms).
   * @param bodyOverride - Validate this text instead of the body (one line of a stream).
   */
  problems(exchange: RecordedExchange, bodyOverride?: string): string[] {
    const where = `${exchange.method} ${exchange.path} -> ${exchange.status}`;
    const found = this.find(exchange.method, exchange.path);
    if (found === undefined) return [`${where}: no operation in the description`];
    const { template, operation } = found;
    const seen = this.covered.get(operation.operationId) ?? new Set<number>();
    seen.add(exchange.status);
    this.covered.set(operation.operationId, seen);
    const base = `/paths/${escapePointer(template)}/${exchange.method.toLowerCase()}/responses/${exchange.status}`;
    const declared = operation.responses[String(exchange.status)];
    if (declared === undefined)
      return [`${where}: status not described (described: ${Object.keys(operation.responses).join(', ')})`];
    const problems: string[] = [];
    let response = declared;
    let pointer = base;
    if (declared.$ref !== undefined) {
      const name = declared.$ref.split('/').at(-1) ?? '';
      response = this.#document.components.responses[name] as typeof declared;
      pointer = `/components/responses/${escapePointer(name)}`;
    }
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = exchange.headers.get(name);
      if (value === null) {
        if (header.required === true) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      const schema = header.schema as { type?: string };
      const typed = schema.type === 'integer' ? Number(value) : value;
      const validate = this.#validator(`${pointer}/headers/${escapePointer(name)}/schema`);
      if (!validate(typed))
        problems.push(`${where}: header ${name}=${value}: ${this.#ajv.errorsText(validate.errors)}`);
    }
    const content = response.content;
    const text = bodyOverride ?? exchange.body;
    if (content === undefined || Object.keys(content).length === 0) {
      if (text !== '') problems.push(`${where}: a body where none is described: ${text.slice(0, 200)}`);
      return problems;
    }
    const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!(mediaType in content)) {
      problems.push(
        `${where}: media type ${mediaType || '(none)'}, described: ${Object.keys(content).join(', ')}`,
      );
      return problems;
    }
    let value: unknown = text;
    if (mediaType === 'application/json') {
      try {
        value = JSON.parse(text);
      } catch {
        return [...problems, `${where}: body is not JSON: ${text.slice(0, 200)}`];
      }
    }
    const validate = this.#validator(`${pointer}/content/${escapePointer(mediaType)}/schema`);
    if (!validate(value)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
      problems.push(`${where}: body does not match: ${errors.join('; ')}`);
    }
    return problems;
  }
}

/** What a WebSocket session of a described endpoint carried after its 101. */
export interface RecordedWebSocket {
  /** Every JSON frame the server sent, parsed. */
  readonly frames: readonly unknown[];
  /** The close code the server ended with. */
  readonly closeCode: number;
}

/** A fetch that records every exchange (bodies read from a clone; streams are not read). */
export function recordingFetch(
  log: RecordedExchange[],
  streamPaths: readonly string[] = [],
): (input: string, init: object) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init as RequestInit);
    const url = new URL(input);
    const method = ((init as RequestInit).method ?? 'GET').toUpperCase();
    if (!streamPaths.includes(url.pathname)) {
      const body = await response.clone().text();
      log.push({ method, path: url.pathname, status: response.status, headers: response.headers, body });
    }
    return response;
  };
}
