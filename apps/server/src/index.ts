/**
 * The sked sample server: the scheduling service's HTTP API on a local listener, backed by a
 * simulated cluster. See the README for flags and decisions.
 *
 * @packageDocumentation
 */
export type { RunningServer, StartServerOptions } from './wiring/server.js';
export { AclConfigError, startServer } from './wiring/server.js';
export type { ServerFixture } from './wiring/fixture.js';
export type { SeedLdapGroup, SeedLdapUser, ServerSeed } from './wiring/seed.js';
export { SeedError } from './wiring/seed.js';
export type { SeededJob, SeedJobOptions } from './scheduler/seed.js';
export type { FaultHandle, FaultSnapshot, ServerFaults } from './http/faults.js';
export type { FaultFilter, FaultRule, FaultService } from './http/fault-rules.js';
export { FAULT_SERVICES, FaultRuleError } from './http/fault-rules.js';
export type { CliCommand } from './wiring/cli.js';
export { USAGE, parseCli, withCliPorts } from './wiring/cli.js';
export type { HttpAppOptions } from './http/app.js';
export { createHttpApp, DEFAULT_MAX_BODY, sendJson } from './http/app.js';
export { HttpError } from './http/errors.js';
export type { Acl, AclConfig, Principal } from './scheduler/acl/index.js';
export { createAcl, loadAclFile, parseAclConfig } from './scheduler/acl/index.js';
export type { SchedulerCluster, SchedulerRouteContext } from './scheduler/routes/index.js';
export { registerSchedulerRoutes } from './scheduler/routes/index.js';
