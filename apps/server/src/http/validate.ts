import { formatProblems, validate } from '@sked/model';
import type { Static, TSchema } from 'typebox';
import { badRequest } from './errors.js';

/**
 * Validates a JSON body against a schema of `@sked/model`.
 * @param schema - The schema.
 * @param body - The parsed body (undefined when empty).
 * @returns The typed value.
 * @throws 400 naming each field that does not match.
 */
export function validateBody<S extends TSchema>(schema: S, body: unknown): Static<S> {
  if (body === undefined || body === null)
    throw badRequest('Request body is empty; a JSON object is required');
  const result = validate(schema, body);
  if (!result.ok) throw badRequest(formatProblems(result.problems));
  return result.value as Static<S>;
}
