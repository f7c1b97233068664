import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked, startServer, type ServerProcess } from './harness.js';

/** Names that are Object.prototype members (issue 29), and a plain control. */
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

let server: ServerProcess;
const run = (args: string[], input?: string) =>
  sked(args, { env: server.env, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  server = await startServer([]);
});
afterAll(async () => {
  await server.close();
});

/** A job whose ID, group, task and Meta key are all `name` (JSON text, so `__proto__` stays a key). */
function jobText(name: string, extra = ''): string {
  const n = JSON.stringify(name);
  return `{"Job":{"ID":${n},"Meta":{${n}:"v"}${extra},"Update":{"MaxParallel":1,"MinHealthyTime":100000000},"TaskGroups":[{"Name":${n},"Count":1,"Tasks":[{"Name":${n},"Driver":"mock","Config":{"run_for":"1h"}}]}]}}`;
}

describe.concurrent.each(NAMES)('sked with a job, group, task and Meta key named %j', (name) => {
  it('job run, job status, job plan, job dispatch --meta', async () => {
    // Act: run it and follow its deployment
    const ran = await run(['job', 'run', '-'], jobText(name));
    // Assert
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/✓ Deployment "[0-9a-f]{8}" successful/);
    expect(ran.stdout).toContain(`group "${name}"`);
    const status = await run(['job', 'status', name]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^ *${name} +1 +`, 'm'));
    const plan = await run(['job', 'plan', '-'], jobText(name).replace('"Count":1', '"Count":2'));
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain(`Task Group: "${name}"`);
    // A parameterized job takes a meta key of this name from --meta
    const id = `${name}-p`;
    const parameterized = jobText(
      name,
      `,"Type":"batch","ParameterizedJob":{"MetaRequired":[${JSON.stringify(name)}]}`,
    ).replace(`"ID":${JSON.stringify(name)}`, `"ID":${JSON.stringify(id)}`);
    expect((await run(['job', 'run', '--detach', '-'], parameterized)).code).toBe(0);
    const dispatched = await run(['job', 'dispatch', '--detach', '--meta', `${name}=x`, id]);
    expect(dispatched.stderr).toBe('');
    expect(dispatched.code).toBe(0);
    const missing = await run(['job', 'dispatch', '--detach', id]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(`Dispatch did not provide required meta keys: [${name}]`);
  });
});
