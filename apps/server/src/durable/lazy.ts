import type { TableName } from '../scheduler/core/index.js';

/** The head fields of jobs and job versions. */
const JOB_HEAD = [
  'Namespace',
  'ID',
  'ParentID',
  'Name',
  'Type',
  'Priority',
  'Status',
  'Stop',
  'Stable',
  'Version',
  'Dispatched',
  'Periodic',
  'ParameterizedJob',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SubmitTime',
];

/**
 * The fields of an item kept in the `head` column of its row, per table: what the core reads of
 * every item at start-up and in its scans (identity, sort key, owning job, status, indexes), so a
 * restored item is read from its head alone until something asks for more. A field is in a head
 * only when its value is a string, number, boolean or null (`Periodic` of a periodic job is not:
 * asking for it reads the whole item). Tables not named here (deployments, volumes, nodes: few
 * items, and deep-copied by the core) are restored whole.
 */
export const HEAD_FIELDS: { readonly [K in TableName]?: readonly string[] } = {
  jobs: JOB_HEAD,
  jobVersions: JOB_HEAD,
  submissions: ['Namespace', 'JobID', 'Version'],
  summaries: ['Namespace', 'JobID', 'CreateIndex', 'ModifyIndex'],
  evals: [
    'ID',
    'Namespace',
    'JobID',
    'Type',
    'Priority',
    'Status',
    'TriggeredBy',
    'WaitUntil',
    'DeploymentID',
    'NodeID',
    'JobModifyIndex',
    'CreateIndex',
    'ModifyIndex',
  ],
  allocs: [
    'ID',
    'Namespace',
    'JobID',
    'EvalID',
    'NodeID',
    'Name',
    'TaskGroup',
    'DeploymentID',
    'DesiredStatus',
    'ClientStatus',
    'CreateIndex',
    'ModifyIndex',
    'AllocModifyIndex',
  ],
};

/**
 * The head of an item (see {@link HEAD_FIELDS}) as JSON text, or null for a table whose items are
 * restored whole: an array of the head fields' values in {@link HEAD_FIELDS} order, `{}` for a
 * field that is absent or not a scalar (compact, and parsed once for a whole table at start-up).
 * @param table - The item's table.
 * @param item - The item.
 * @returns the JSON text of its head, or null.
 */
export function headOf(table: TableName, item: unknown): string | null {
  const fields = HEAD_FIELDS[table];
  if (fields === undefined) return null;
  const source = item as Record<string, unknown>;
  const head: unknown[] = [];
  for (const f of fields) {
    const v = source[f];
    head.push(v === null || (v !== undefined && typeof v !== 'object') ? v : {});
  }
  return JSON.stringify(head);
}

/** Where lazy items read their whole text: the rows they were restored from. */
export interface LazySource {
  /** The body of a row (throws when it cannot be read). */
  read(table: TableName, id: string): string;
  /** Told once an item no longer needs its row (read whole, or its text kept). */
  settled(table: TableName, id: string): void;
}

const ROW = Symbol('row');
const WHOLE = Symbol('whole');
const TEXT = Symbol('text');
const SELF = Symbol('self');

/** The target of a lazy item's proxy: its head fields, and (under symbols) its row and state. */
type Target = Record<string, unknown> & {
  [ROW]: string;
  [WHOLE]?: Record<string, unknown>;
  [TEXT]?: string;
  [SELF]?: unknown;
};

/**
 * The lazily restored items of one table: each is a `Proxy` whose target holds the item's head
 * (and, under symbols the proxy never shows, its row id), and which reads and parses the whole
 * item from its row on the first question the head cannot answer (any other field, the list of
 * keys, a property descriptor, a write). After that every operation goes to the whole item, so the
 * proxy behaves as the plain object the item was: the same keys in the same order, the same JSON
 * text, spreads and `Object.keys` as before the restart. One handler serves the whole table.
 */
export class LazyTable implements ProxyHandler<Target> {
  readonly #fields: readonly string[];

  constructor(
    private readonly source: LazySource,
    readonly table: TableName,
  ) {
    this.#fields = HEAD_FIELDS[table] ?? [];
  }

  /**
   * A lazy item.
   * @param head - Its row id, then its parsed head (see {@link headOf}).
   * @returns the item, and its target (for {@link LazyTable.keepText}).
   */
  item(head: readonly [string, ...unknown[]]): { item: unknown; target: object } {
    const target = { [ROW]: head[0] } as Target;
    const fields = this.#fields;
    for (let i = 0; i < fields.length; i++) {
      const v = head[i + 1];
      if (v === null || typeof v !== 'object') target[fields[i] as string] = v;
    }
    const item = new Proxy(target, this);
    target[SELF] = item;
    return { item, target };
  }

  /** The item of a target returned by {@link LazyTable.item}. */
  itemOf(target: object): unknown {
    return (target as Target)[SELF];
  }

  /** Keeps the row's current text in an item not read whole, because the row is about to change. */
  keepText(target: object): void {
    const t = target as Target;
    if (t[WHOLE] !== undefined || t[TEXT] !== undefined) return;
    t[TEXT] = this.source.read(this.table, t[ROW]);
    this.source.settled(this.table, t[ROW]);
  }

  /** The whole item, read and parsed on first use. */
  whole(target: Target): Record<string, unknown> {
    let whole = target[WHOLE];
    if (whole === undefined) {
      const kept = target[TEXT];
      whole = JSON.parse(kept ?? this.source.read(this.table, target[ROW])) as Record<string, unknown>;
      target[WHOLE] = whole;
      if (kept === undefined) this.source.settled(this.table, target[ROW]);
      else delete target[TEXT];
    }
    return whole;
  }

  get(target: Target, key: string | symbol): unknown {
    const whole = target[WHOLE];
    if (whole !== undefined) return whole[key as string];
    // JSON objects have no symbol keys: the prototype answers those, as for the whole item.
    if (typeof key === 'symbol') return (Object.prototype as Record<symbol, unknown>)[key];
    if (Object.hasOwn(target, key)) return target[key];
    return this.whole(target)[key];
  }

  has(target: Target, key: string | symbol): boolean {
    if (target[WHOLE] === undefined && typeof key === 'string' && Object.hasOwn(target, key)) return true;
    return key in this.whole(target);
  }

  ownKeys(target: Target): (string | symbol)[] {
    return Reflect.ownKeys(this.whole(target));
  }

  getOwnPropertyDescriptor(target: Target, key: string | symbol): PropertyDescriptor | undefined {
    return Reflect.getOwnPropertyDescriptor(this.whole(target), key);
  }

  set(target: Target, key: string | symbol, value: unknown): boolean {
    return Reflect.set(this.whole(target), key, value);
  }

  defineProperty(target: Target, key: string | symbol, descriptor: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.whole(target), key, descriptor);
  }

  deleteProperty(target: Target, key: string | symbol): boolean {
    return Reflect.deleteProperty(this.whole(target), key);
  }
}
