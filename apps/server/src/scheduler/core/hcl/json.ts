import { nullRecord } from '@sked/model';

/** JSON as hcl2json returns it. */
export type Json = unknown;
/** A JSON object. */
export type Obj = Record<string, Json>;

/** Whether a value is a JSON object. */
export const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The objects' keys merged into one record (a later object's key wins), every key kept an own key:
 * unlike `Object.assign({}, ...)`, a block attribute or label named `__proto__` stays a key.
 */
export const merged = (list: readonly Json[]): Obj =>
  nullRecord(list.filter(isObj).flatMap((o) => Object.entries(o)));
