// Public-API type tests: checked by `tsc --noEmit` (the typecheck script), which fails on any
// expectation that does not hold.
import type { ApiResponse } from '@sked/http';
import { expectTypeOf } from 'vitest';

import {
  createMeshClient,
  createTransport,
  MESH_DEFAULT_ADDRESS,
  type MeshClient,
  type Peering,
  type PeeringGenerateTokenResponse,
  type Result,
} from '../src/index.js';

const client = createMeshClient({ env: false, partition: 'default' });
expectTypeOf(client).toEqualTypeOf<MeshClient>();
expectTypeOf(createMeshClient(createTransport({ env: false }))).toEqualTypeOf<MeshClient>();
expectTypeOf(client.withDefaults({ token: 't', partition: 'p' })).toEqualTypeOf<MeshClient>();
expectTypeOf(MESH_DEFAULT_ADDRESS).toEqualTypeOf<string>();

// Every call resolves { data, meta }.
expectTypeOf(client.peerings.list()).toEqualTypeOf<Promise<Result<Peering[]>>>();
expectTypeOf(client.peerings.read('dc2')).toEqualTypeOf<Promise<Result<Peering>>>();
expectTypeOf<Result<Peering>>().toEqualTypeOf<ApiResponse<Peering>>();
expectTypeOf(client.peerings.read.watch('dc2')).toEqualTypeOf<AsyncIterable<Result<Peering>>>();
expectTypeOf(client.peerings.generateToken({ PeerName: 'dc2' })).toEqualTypeOf<
  Promise<Result<PeeringGenerateTokenResponse>>
>();

// The options accept only what means something for the service.
// @ts-expect-error the mesh service has partitions, not namespaces
void createMeshClient({ namespace: 'prod' });
// @ts-expect-error nor regions
void createMeshClient({ region: 'west' });
// @ts-expect-error the environment prefix is the client's own
void createMeshClient({ envPrefix: 'OTHER_' });
// @ts-expect-error a derived client has no namespace either
void client.withDefaults({ namespace: 'prod' });
// @ts-expect-error a request body is the model's request type
void client.peerings.generateToken({ Name: 'dc2' });
