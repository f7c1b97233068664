/**
 * The mesh service's cluster peering: the listener, the peering API, establishment between two
 * running servers and the heartbeat streams.
 *
 * @packageDocumentation
 */
export type { PeeringAccess, PeeringAcl, PeeringPrincipal } from './access.js';
export type { RunningMesh, StartMeshOptions } from './start.js';
export { startMeshService } from './start.js';
export type { MeshService, MeshServiceOptions } from './service.js';
export { createMeshService } from './service.js';
export type { PeeringDraft, PeeringRole, PeeringSnapshot, PeeringStore, StoredPeering } from './store.js';
export { createMemoryPeeringStore } from './store.js';
export { createFilePeeringStore, MeshStateError } from './file-store.js';
export type { PeeringTokenContent } from './token.js';
export { decodeToken, encodeToken } from './token.js';
