import { createMeshClient, type MeshClient } from '@sked/mesh-client';
import type { Command } from 'commander';

import { globalsOf } from './context.js';
import type { ErrorContextOf } from './handler.js';
import { processOutput, type Output } from './output.js';
import { connectionOptions, errorContext, resolvedAddress, type ConnectionFlags } from './service-config.js';
import { requestTimeout } from './timeout.js';

/** What a mesh service command needs. */
export interface MeshContext {
  readonly client: MeshClient;
  readonly output: Output;
}

/** The mesh service's error words. */
export const meshErrors: ErrorContextOf = (command) =>
  errorContext('mesh', resolvedAddress('mesh', globalsOf(command)));

/** The mesh service client: `--address`/`--token`, then `SKED_MESH_*`, then the client's default address. */
export function meshContext(command: Command): MeshContext {
  const globals = globalsOf(command);
  return {
    client: meshClientFor({ ...globals, timeout: requestTimeout(globals.timeout) }),
    output: processOutput(globals.json === true),
  };
}

/** The mesh service client for the given flags (as {@link meshContext}; shell completion uses it too). */
export function meshClientFor(flags: ConnectionFlags): MeshClient {
  return createMeshClient(connectionOptions('mesh', flags));
}
