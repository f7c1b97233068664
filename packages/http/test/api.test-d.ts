// Public-API type tests: checked by `tsc --noEmit` (the typecheck script), which fails on any
// expectation that does not hold.
import { expectTypeOf } from 'vitest';

import {
  ApiError,
  type ApiResponse,
  ConfigError,
  createTransport,
  type QueryMeta,
  type Transport,
  type TransportConfig,
} from '../src/index.js';

const transport = createTransport({ env: false });
expectTypeOf(transport).toEqualTypeOf<Transport>();
expectTypeOf(transport.config).toEqualTypeOf<TransportConfig>();
expectTypeOf(transport.request<{ ID: string }[]>({ path: '/v1/jobs' })).toEqualTypeOf<
  Promise<ApiResponse<{ ID: string }[]>>
>();
expectTypeOf(transport.request({ path: '/v1/jobs' })).toEqualTypeOf<Promise<ApiResponse<unknown>>>();
expectTypeOf<ApiResponse<number>['meta']>().toEqualTypeOf<QueryMeta>();
expectTypeOf(transport.withDefaults({ namespace: 'prod' })).toEqualTypeOf<Transport>();
// @ts-expect-error the environment belongs to the transport that was created, not to a derived one
transport.withDefaults({ env: false });
// @ts-expect-error a request needs a path
void transport.request({ method: 'GET' });
// @ts-expect-error parse modes are a closed set
void transport.request({ path: '/v1/x', parse: 'xml' });

// Destructuring works: members are functions, not methods bound to `this`.
const { request, url, authHeaders, redact } = transport;
expectTypeOf(request).toBeFunction();
expectTypeOf(url('/v1/x')).toEqualTypeOf<URL>();
expectTypeOf(authHeaders()).toEqualTypeOf<Record<string, string>>();
expectTypeOf(redact('x')).toEqualTypeOf<string>();

declare const error: unknown;
if (ApiError.is(error)) {
  expectTypeOf(error.status).toEqualTypeOf<number>();
  expectTypeOf(error.name).toEqualTypeOf<'ApiError'>();
  expectTypeOf(error.meta).toEqualTypeOf<QueryMeta>();
}
if (ConfigError.is(error)) expectTypeOf(error.source).toEqualTypeOf<string>();
