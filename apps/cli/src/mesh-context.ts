import { createMeshClient, type MeshClient } from '@sked/mesh-client';
import type { Command } from 'commander';

import { globalsOf } from './context.js';
import type { ErrorContext } from './errors.js';
import type { ErrorContextOf } from './handler.js';
import { processOutput, type Output } from './output.js';
import { requestTimeout } from './timeout.js';

/** Default address of the mesh service. */
export const MESH_DEFAULT_ADDRESS = 'http://127.0.0.1:8500';

/** What a mesh service command needs. */
export interface MeshContext {
  readonly client: MeshClient;
  readonly output: Output;
}

function meshAddress(command: Command): string {
  return meshAddressFor(globalsOf(command).address);
}

function meshAddressFor(flag: string | undefined): string {
  const env = process.env['SKED_MESH_ADDR'];
  return flag ?? (env === undefined || env === '' ? MESH_DEFAULT_ADDRESS : env);
}

/** The mesh service's error words. */
export const meshErrors: ErrorContextOf = (command): ErrorContext => ({
  service: 'mesh service',
  addressVar: 'SKED_MESH_ADDR',
  tokenVar: 'SKED_MESH_TOKEN',
  address: meshAddress(command),
});

/** The mesh service client: `--address`/`--token`, then `SKED_MESH_*`, then the default address. */
export function meshContext(command: Command): MeshContext {
  const globals = globalsOf(command);
  return {
    client: meshClientFor({ ...globals, timeout: requestTimeout(globals.timeout) }),
    output: processOutput(globals.json === true),
  };
}

/** The mesh service client for the given flags (as {@link meshContext}; shell completion uses it too). */
export function meshClientFor(flags: {
  readonly address?: string | undefined;
  readonly token?: string | undefined;
  readonly timeout?: number | undefined;
}): MeshClient {
  return createMeshClient({
    address: meshAddressFor(flags.address),
    ...(flags.timeout === undefined ? {} : { timeout: flags.timeout }),
    ...(flags.token === undefined ? {} : { token: flags.token }),
  });
}
