import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../http/errors.js';
import type { Acl, Principal } from './acl.js';
import { secretFromHeaders } from '../../http/guards.js';
import type { NamespaceCapability, NodeAccess } from './tokens.js';

/**
 * Resolves the request's token to its principal.
 * @param acl - The server's ACL.
 * @param request - The request carrying `X-Svc-Token` or `Authorization: Bearer`.
 * @returns The principal (everything allowed when ACL is off).
 * @throws 403 `ACL token not found` when ACL is on and the token is missing or unknown.
 */
export function authenticate(acl: Acl, request: FastifyRequest): Principal {
  const principal = acl.resolve(secretFromHeaders(request.headers));
  if (principal === undefined) throw forbidden('ACL token not found');
  return principal;
}

/** Authenticates the request and answers 403 `Permission denied` unless the principal passes `allowed`. */
function authorize(acl: Acl, request: FastifyRequest, allowed: (principal: Principal) => boolean): Principal {
  const principal = authenticate(acl, request);
  if (!allowed(principal)) throw forbidden('Permission denied');
  return principal;
}

/**
 * Requires at least one of the capabilities in a namespace.
 * @param acl - The server's ACL.
 * @param request - The request.
 * @param namespace - The namespace acted on (`*` asks for the capability in any namespace).
 * @param capabilities - Accepted capabilities (any one suffices).
 * @returns The principal, for later per-item checks.
 * @throws 403 `ACL token not found` or `Permission denied`.
 */
export function requireNamespace(
  acl: Acl,
  request: FastifyRequest,
  namespace: string,
  ...capabilities: readonly NamespaceCapability[]
): Principal {
  return authorize(acl, request, (principal) =>
    capabilities.some((capability) => principal.allowNamespace(namespace, capability)),
  );
}

/**
 * Requires every capability in a namespace.
 * @param acl - The server's ACL.
 * @param request - The request.
 * @param namespace - The namespace acted on.
 * @param capabilities - Required capabilities (all of them).
 * @returns The principal.
 * @throws 403 `ACL token not found` or `Permission denied`.
 */
export function requireAllNamespace(
  acl: Acl,
  request: FastifyRequest,
  namespace: string,
  ...capabilities: readonly NamespaceCapability[]
): Principal {
  return authorize(acl, request, (principal) =>
    capabilities.every((capability) => principal.allowNamespace(namespace, capability)),
  );
}

/**
 * Requires node access.
 * @param acl - The server's ACL.
 * @param request - The request.
 * @param access - `read` or `write`.
 * @returns The principal.
 * @throws 403 `ACL token not found` or `Permission denied`.
 */
export function requireNode(acl: Acl, request: FastifyRequest, access: NodeAccess): Principal {
  return authorize(acl, request, (principal) => principal.allowNode(access));
}

/**
 * Requires a management token.
 * @param acl - The server's ACL.
 * @param request - The request.
 * @returns The principal.
 * @throws 403 `ACL token not found` or `Permission denied`.
 */
export function requireManagement(acl: Acl, request: FastifyRequest): Principal {
  return authorize(acl, request, (principal) => principal.management);
}
