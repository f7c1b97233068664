/** JSON as hcl2json returns it. */
export type Json = unknown;
/** A JSON object. */
export type Obj = Record<string, Json>;

/** Whether a value is a JSON object. */
export const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
