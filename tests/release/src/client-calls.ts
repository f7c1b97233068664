/**
 * One real call of each published API client, written as a user would write it after
 * `npm install`: the same text runs as plain Node ESM (`.mjs`) and typechecks as TypeScript
 * (`.ts`), against a running `sked-server`. A client that lands without an entry here fails the
 * consumer test, so every client gets its call; a new listener is covered by adding its call.
 */

/** How a call is run and judged. */
export interface ClientCall {
  /** The `sked-server` listener it talks to (the service name of its ready line). */
  readonly service: string;
  /**
   * Module text (valid JavaScript and TypeScript) that reads the listener's URL from
   * `process.env.SKED_TEST_URL` (and the secrets root token from `SKED_TEST_TOKEN`) and prints
   * one JSON line.
   */
  readonly source: string;
  /** Throws when the printed JSON is not what the demo server holds. */
  readonly check: (printed: unknown) => void;
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The calls, by client package name. */
export const clientCalls: Readonly<Record<string, ClientCall>> = {
  '@sked/scheduler-client': {
    service: 'scheduler',
    source: `import { createClient } from '@sked/scheduler-client';

const client = createClient({ address: process.env['SKED_TEST_URL'] ?? '', env: false });
const { data: jobs, meta } = await client.jobs.list();
console.log(JSON.stringify({ ids: jobs.map((job) => job.ID).sort(), index: meta.index }));
`,
    check: (printed) => {
      const { ids, index } = printed as { ids: string[]; index: number };
      assert(ids.includes('web') && ids.includes('report'), `demo jobs missing: ${JSON.stringify(ids)}`);
      assert(index >= 1, `X-Svc-Index should be at least 1, was ${index}`);
    },
  },
  '@sked/secrets-client': {
    service: 'secrets',
    source: `import { createSecretsClient } from '@sked/secrets-client';

const client = createSecretsClient({
  address: process.env['SKED_TEST_URL'] ?? '',
  token: process.env['SKED_TEST_TOKEN'] ?? '',
});
const { data: lookup } = await client.token.lookupSelf();
console.log(JSON.stringify({ policies: lookup.policies }));
`,
    check: (printed) => {
      const { policies } = printed as { policies: string[] };
      assert(
        JSON.stringify(policies) === '["root"]',
        `the root token should have the root policy: ${JSON.stringify(policies)}`,
      );
    },
  },
  '@sked/mesh-client': {
    service: 'mesh',
    source: `import { createMeshClient } from '@sked/mesh-client';

const mesh = createMeshClient({ address: process.env['SKED_TEST_URL'] ?? '' });
const { data: generated } = await mesh.peerings.generateToken({ PeerName: 'consumer-check' });
const { data: peerings } = await mesh.peerings.list();
console.log(JSON.stringify({ token: generated.PeeringToken.length > 0, names: peerings.map((p) => p.Name) }));
`,
    check: (printed) => {
      const { token, names } = printed as { token: boolean; names: string[] };
      assert(token, 'no peering token generated');
      assert(
        names.includes('consumer-check'),
        `the pending peering should be listed: ${JSON.stringify(names)}`,
      );
    },
  },
};
