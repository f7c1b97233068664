/**
 * The fault control endpoint, `/v1/sked/faults`, for tests that are not written in Node (the same
 * operations as `server.faults`). Off unless asked for (`--fault-control`, `faultControl: true`);
 * when on, it is served by the scheduling listener behind the same local-only guard as every other
 * endpoint, and needs a management token when ACLs are on.
 *
 * @packageDocumentation
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from './app.js';
import { badRequest, HttpError } from './errors.js';
import { FaultRuleError } from './fault-rules.js';
import type { ServerFaults } from './faults.js';
import { isRecord } from './guards.js';

/** The control endpoint's base path. */
export const FAULT_CONTROL_PATH = '/v1/sked/faults';

function checked<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (FaultRuleError.is(error)) throw badRequest(error.message);
    throw error;
  }
}

function state(faults: ServerFaults): object {
  return { leaderless: faults.isLeaderless, rules: faults.list() };
}

/**
 * Registers the control endpoint:
 * - `GET /v1/sked/faults`: `{"leaderless": false, "rules": [...]}`;
 * - `POST` (or `PUT`) `/v1/sked/faults` with a rule: the rule as listed, with its `id`;
 * - `DELETE /v1/sked/faults/:id`: removes a rule (404 `fault rule not found`);
 * - `DELETE /v1/sked/faults`: removes every rule and gives the leader back;
 * - `PUT /v1/sked/faults/leader` with `{"leaderless": true}` (or `false`);
 * - `POST /v1/sked/faults/drop` with `{"service", "method", "path"}` (each optional): `{"dropped": N}`.
 * @param app - The scheduling listener.
 * @param faults - The server's faults.
 * @param authorize - Throws the 403 when the request may not use it (management token).
 */
export function registerFaultControl(
  app: FastifyInstance,
  faults: ServerFaults,
  authorize: (request: FastifyRequest) => void,
): void {
  const base = FAULT_CONTROL_PATH;
  app.get(base, (request, reply) => {
    authorize(request);
    return sendJson(request, reply, state(faults));
  });
  const add = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    authorize(request);
    if (request.body === undefined) throw badRequest('fault rule: the body must be a JSON object');
    const handle = checked(() => faults.inject(request.body as never));
    const added = faults.list().find((rule) => rule.id === handle.id);
    return sendJson(request, reply, added);
  };
  app.post(base, add);
  app.put(base, add);
  app.delete(base, (request, reply) => {
    authorize(request);
    faults.clear();
    return sendJson(request, reply, state(faults));
  });
  app.put(`${base}/leader`, (request, reply) => {
    authorize(request);
    const body = request.body;
    const keys = isRecord(body) ? Object.keys(body) : [];
    const leaderless = isRecord(body)
      ? (Object.getOwnPropertyDescriptor(body, 'leaderless')?.value as unknown)
      : undefined;
    if (typeof leaderless !== 'boolean' || keys.length !== 1) {
      throw badRequest('fault control: the body must be {"leaderless": true} or {"leaderless": false}');
    }
    faults.leaderless(leaderless);
    return sendJson(request, reply, state(faults));
  });
  const drop = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    authorize(request);
    const dropped = checked(() => faults.drop((request.body ?? {}) as never));
    return sendJson(request, reply, { dropped });
  };
  app.post(`${base}/drop`, drop);
  app.put(`${base}/drop`, drop);
  app.delete(`${base}/:id`, (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    authorize(request);
    if (!faults.remove(request.params.id)) throw new HttpError(404, 'fault rule not found');
    return sendJson(request, reply, state(faults));
  });
}
