import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../http/app.js';
import { createAcl, parseAclConfig } from '../acl/index.js';
import { registerEventStreamRoute } from './route.js';
import type { EventBatch, StreamEvent } from './types.js';

/**
 * Issue 22 item 4: with `namespace=*`, each event is checked against the token's rules (a `deny`
 * included), with the rule the list endpoints use, not once per subscription.
 */

const TOKEN = 'wide-secret';
const acl = createAcl(
  parseAclConfig({
    tokens: [
      { name: 'wide', secret: TOKEN, namespaces: { '*': ['list-jobs', 'read-job'], 'team-b': ['deny'] } },
    ],
  }),
);

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function event(index: number, namespace: string, key: string): StreamEvent {
  return {
    Topic: 'Job',
    Type: 'JobRegistered',
    Key: key,
    Namespace: namespace,
    FilterKeys: null,
    Index: index,
    Payload: { Job: { ID: key, Namespace: namespace, Meta: { secret: `${namespace}-payload` } } },
  };
}

async function start() {
  const listeners = new Set<(batch: EventBatch) => void>();
  const cluster = {
    onEvents(listener: (batch: EventBatch) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const app = createHttpApp();
  registerEventStreamRoute(app, { cluster, acl, heartbeatMs: 60_000, buffer: { bufferSize: 64 } });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const emit = (batch: EventBatch) => {
    for (const listener of listeners) listener(batch);
  };
  return { port: address.port, emit };
}

/** Reads the stream until a line holds an event with Key `end`; returns every line's text. */
function readUntilEnd(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { 'x-svc-token': TOKEN } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('"Key":"end"')) {
            req.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          }
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('event stream ACL per event', () => {
  it('namespace=* does not carry events of a denied namespace', async () => {
    const { port, emit } = await start();
    emit({ Index: 1, Events: [event(1, 'default', 'a'), event(1, 'team-b', 'hidden')] });
    emit({ Index: 2, Events: [event(2, 'team-b', 'hidden-too')] });
    emit({ Index: 3, Events: [event(3, 'team-a', 'end')] });
    const { status, body } = await readUntilEnd(port, '/v1/event/stream?namespace=*&topic=Job&index=1');
    expect(status).toBe(200);
    expect(body).toContain('"Key":"a"');
    expect(body).toContain('"Key":"end"');
    expect(body).not.toContain('team-b');
    expect(body).not.toContain('hidden');
  });

  it('refuses namespace=team-b outright, and an invalid namespace name with 400', async () => {
    const { port } = await start();
    const denied = await readUntilEnd(port, '/v1/event/stream?namespace=team-b&topic=Job');
    expect(denied.status).toBe(403);
    const invalid = await readUntilEnd(
      port,
      `/v1/event/stream?namespace=${encodeURIComponent('default\u0000evil')}`,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body).toBe(
      'Invalid namespace name "default\\u0000evil": must match regex ^[a-zA-Z0-9-]{1,128}$',
    );
  });
});
