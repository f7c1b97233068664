/**
 * Turns the model's TypeBox schemas into OpenAPI components: every exported schema becomes
 * `#/components/schemas/<Name>`, and wherever one appears inside another it is replaced by a
 * `$ref` to it, so the document states each shape once.
 *
 * @packageDocumentation
 */
import type { TSchema } from 'typebox';
import * as allocation from '../allocation.js';
import * as allocRequests from '../alloc-requests.js';
import * as constraint from '../constraint.js';
import * as deployment from '../deployment.js';
import * as evaluation from '../evaluation.js';
import * as event from '../event.js';
import * as exec from '../exec.js';
import * as job from '../job.js';
import * as jobLaunch from '../job-launch.js';
import * as jobReads from '../job-reads.js';
import * as jobDiff from '../job-diff.js';
import * as jobRequests from '../job-requests.js';
import * as ldap from '../ldap.js';
import * as ldapConfig from '../ldap-config.js';
import * as network from '../network.js';
import * as node from '../node.js';
import * as peering from '../peering.js';
import * as policies from '../policies.js';
import * as task from '../task.js';
import * as taskParts from '../task-parts.js';
import * as taskResources from '../task-resources.js';
import * as taskService from '../task-service.js';
import * as taskGroup from '../task-group.js';
import * as volume from '../volume.js';

/** A JSON Schema as plain JSON (what goes into the document). */
export type JsonSchema = Record<string, unknown>;

function isSchema(value: unknown): value is TSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return ['type', 'anyOf', 'oneOf', 'allOf', 'const', 'enum', '$ref'].some((key) => key in value);
}

/**
 * Every schema the model exports, by name, in a fixed order: stored shapes before the lenient
 * `...Input` forms, so that when two names describe the same JSON the stored name is used.
 */
export function modelSchemas(): ReadonlyMap<string, TSchema> {
  const modules = [
    jobLaunch,
    job,
    jobReads,
    taskGroup,
    taskResources,
    taskService,
    taskParts,
    task,
    constraint,
    policies,
    network,
    jobRequests,
    jobDiff,
    evaluation,
    deployment,
    allocation,
    allocRequests,
    volume,
    node,
    event,
    exec,
    ldapConfig,
    ldap,
    peering,
  ];
  const entries: [string, TSchema][] = [];
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (/^[A-Z]/.test(name) && isSchema(value)) entries.push([name, value]);
    }
  }
  entries.sort(([a], [b]) => Number(a.endsWith('Input')) - Number(b.endsWith('Input')));
  return new Map(entries);
}

/** Plain JSON of a schema (TypeBox's own markers are not enumerable and drop out). */
function toJson(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** A registry of components that fills itself with what the document references. */
export class ComponentRegistry {
  readonly #byText = new Map<string, string>();
  readonly #byName = new Map<string, JsonSchema>();
  readonly #used = new Set<string>();

  /** @param schemas - Named schemas that may become components. */
  constructor(schemas: ReadonlyMap<string, TSchema>) {
    for (const [name, schema] of schemas) {
      const json = toJson(schema);
      // a cyclic schema (`{$defs: {X: {..., $id: X}}, $ref: X}`) becomes its definitions, each a
      // component whose inner `$ref: X` points at the component
      const defs = json['$defs'] as Record<string, JsonSchema> | undefined;
      if (defs !== undefined && typeof json['$ref'] === 'string') {
        for (const [defName, def] of Object.entries(defs)) {
          const { $id: _id, ...rest } = def;
          this.#byName.set(defName, rest);
        }
        this.#byText.set(JSON.stringify(json), json['$ref']);
        continue;
      }
      this.#byName.set(name, json);
      const text = JSON.stringify(json);
      // a bare scalar or empty object is not worth a name of its own
      if (text.length > 40 && !this.#byText.has(text)) this.#byText.set(text, name);
    }
  }

  /**
   * A reference to the component for `schema` (registered on first use), or the schema itself with
   * every known sub-schema replaced by a reference.
   */
  ref(schema: TSchema | JsonSchema): JsonSchema {
    const json = toJson(schema);
    const name = this.#byText.get(JSON.stringify(json));
    if (name !== undefined) {
      this.#use(name);
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.#inner(json);
  }

  #use(name: string): void {
    if (this.#used.has(name)) return;
    this.#used.add(name);
  }

  #inner(value: unknown): JsonSchema {
    return this.#walk(value, true) as JsonSchema;
  }

  #walk(value: unknown, top: boolean): unknown {
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, false));
    if (typeof value !== 'object' || value === null) return value;
    if (!top) {
      const name = this.#byText.get(JSON.stringify(value));
      if (name !== undefined) {
        this.#use(name);
        return { $ref: `#/components/schemas/${name}` };
      }
    }
    const out: Record<string, unknown> = {};
    const ref = (value as JsonSchema)['$ref'];
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      this.#use(ref);
      return { $ref: `#/components/schemas/${ref}` };
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '$id') continue;
      // the keys of `properties` are field names, not schemas
      if (key === 'properties' || key === 'patternProperties') {
        out[key] = Object.fromEntries(
          Object.entries(child as Record<string, unknown>).map(([field, sub]) => [
            field,
            this.#walk(sub, false),
          ]),
        );
      } else if (key === 'required' || key === 'enum') {
        out[key] = child;
      } else {
        out[key] = this.#walk(child, false);
      }
    }
    return out;
  }

  /** The `components.schemas` object: every component referenced so far, and what they reference. */
  schemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    const done = new Set<string>();
    for (;;) {
      const pending = [...this.#used].filter((name) => !done.has(name));
      if (pending.length === 0) break;
      for (const name of pending) {
        done.add(name);
        const json = this.#byName.get(name);
        if (json !== undefined) out[name] = this.#inner(json);
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}
