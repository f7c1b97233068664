/**
 * ACL of the scheduling service: the token file, token resolution and capability checks.
 *
 * @packageDocumentation
 */
export type { Acl, Principal } from './acl.js';
export { ANONYMOUS_ALL, createAcl } from './acl.js';
export { secretFromHeaders } from '../../http/guards.js';
export {
  authenticate,
  requireAllNamespace,
  requireManagement,
  requireNamespace,
  requireNode,
} from './enforce.js';
export type { AclConfig, AclTokenConfig, NamespaceCapability, NodeAccess, PeeringAccess } from './tokens.js';
export { AclConfigError, NAMESPACE_CAPABILITIES, loadAclFile, parseAclConfig } from './tokens.js';
