import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from './app.js';
import { checkFaultFilter, checkFaultRule, faultMatches, FaultRuleError } from './fault-rules.js';
import { createFaultInjector } from './faults.js';

/** Issue 23: a fault rule is checked once, the same from code and from the control endpoint. */

describe('checkFaultRule', () => {
  it('fills in the defaults: every listener, method and path, the first request, once', () => {
    const rule = checkFaultRule({ status: 500 });
    expect(rule).toMatchObject({ service: undefined, methods: undefined, path: undefined, nth: 1, times: 1 });
    expect(rule).toMatchObject({ status: 500, body: undefined, delayMs: 0, reset: false });
    expect(checkFaultRule({ delayMs: 5, times: 'always' }).times).toBe(Number.POSITIVE_INFINITY);
  });

  it.each([
    [null, 'rule', 'fault rule: "rule" must be an object, got null'],
    [{ status: 500, tatus: 1 }, 'tatus', 'fault rule: "tatus" is not a field of a fault rule'],
    [{ status: 42 }, 'status', 'fault rule: "status" must be an integer from 200 to 599, got 42'],
    [{ status: '500' }, 'status', 'must be an integer from 200 to 599, got "500"'],
    [{ status: 500, nth: 0 }, 'nth', 'fault rule: "nth" must be an integer from 1 to 1000000000, got 0'],
    [{ status: 500, times: 1.5 }, 'times', '"times" must be an integer from 1 to 1000000000, got 1.5'],
    [{ status: 500, times: 'forever' }, 'times', 'got "forever"'],
    [{ delayMs: -1 }, 'delayMs', '"delayMs" must be an integer from 0 to 600000, got -1'],
    [{ delayMs: 600_001 }, 'delayMs', 'from 0 to 600000, got 600001'],
    [{ status: 500, service: 'nomad' }, 'service', 'must be one of scheduler, secrets, mesh, got "nomad"'],
    [{ status: 500, method: 'GE T' }, 'method', 'must be an HTTP method such as "GET", got "GE T"'],
    [{ status: 500, method: [] }, 'method', 'must name 1 to 16 methods, got 0'],
    [{ status: 500, path: 'v1/jobs' }, 'path', 'must be a path pattern starting with "/"'],
    [{ status: 500, path: '/v1/jobs?x=1' }, 'path', 'without spaces, query or fragment, got "/v1/jobs?x=1"'],
    [{ status: 500, path: `/${'a'.repeat(1024)}` }, 'path', 'at most 1024 characters'],
    [{ status: 500, headers: { 'x a': '1' } }, 'headers', 'names a header "x a" that is not a header name'],
    [{ status: 500, headers: { 'x-a': 'a\r\nb' } }, 'headers.x-a', 'without CR, LF or NUL'],
    [{ status: 500, headers: { 'Content-Length': '1' } }, 'headers.Content-Length', 'frames the answer'],
    [{ status: 500, headers: [] }, 'headers', 'must be an object of header names to strings'],
    [{ status: 500, reset: 'yes' }, 'reset', 'must be true or false, got "yes"'],
    [{ status: 500, reset: true }, 'reset', 'cannot be combined with "status"'],
    [{ body: 'x' }, 'body', '"body" needs a "status" to answer with'],
    [{ headers: { 'x-a': '1' }, delayMs: 5 }, 'headers', 'needs a "status"'],
    [{ path: '/v1/jobs' }, 'rule', 'does nothing: give it a "status", a "delayMs" or "reset": true'],
    [
      { status: 500, body: () => 1 },
      'body',
      'must be a string or a JSON value, got a value of type function',
    ],
  ])('refuses %j naming %s', (rule, field, message) => {
    let error: unknown;
    try {
      checkFaultRule(rule);
    } catch (caught) {
      error = caught;
    }
    expect(FaultRuleError.is(error)).toBe(true);
    expect((error as FaultRuleError).field).toBe(field);
    expect((error as FaultRuleError).message).toContain(message);
  });

  it('reads only own fields: a rule inheriting "status" from its prototype does nothing', () => {
    const inherited = Object.create({ status: 500 }) as object;
    expect(() => checkFaultRule(inherited)).toThrow('does nothing');
    expect(() => checkFaultRule(JSON.parse('{"__proto__": {"status": 500}}'))).toThrow(
      '"__proto__" is not a field of a fault rule',
    );
  });
});

describe('faultMatches', () => {
  const request = { service: 'scheduler', method: 'GET', path: '/v1/job/web/allocations' } as const;

  it.each([
    [{}, true],
    [{ service: 'scheduler' }, true],
    [{ service: 'mesh' }, false],
    [{ method: 'get' }, true],
    [{ method: ['POST', 'PUT'] }, false],
    [{ path: '/v1/job/:job_id/allocations' }, true],
    [{ path: '/v1/job/:job_id' }, false],
    [{ path: '/v1/job/*' }, true],
    [{ path: '/v1/job/web/allocations/' }, true],
    [{ path: /allocations$/g }, true],
    [{ path: /^\/v1\/jobs/ }, false],
  ])('%j matches GET /v1/job/web/allocations: %s', (filter, expected) => {
    expect(faultMatches(checkFaultFilter(filter), request)).toBe(expected);
    // a global regular expression keeps no state between requests
    expect(faultMatches(checkFaultFilter(filter), request)).toBe(expected);
  });

  it('checks a drop filter like a rule, and refuses fields a filter does not have', () => {
    expect(() => checkFaultFilter({ status: 500 })).toThrow('"status" is not a field of a drop filter');
    expect(() => checkFaultFilter({ service: 'db' })).toThrow('"service" must be one of');
  });
});

describe('properties', () => {
  // the law of `nth` and `times`: of N matching requests, exactly the requests nth .. nth+times-1
  // get the fault, and the requests that do not match are never counted
  test.prop([
    fc.integer({ min: 1, max: 6 }),
    fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant('always' as const)),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 14 }),
  ])(
    'nth and times select exactly the requests they name, counting matches only',
    async (nth, times, matching) => {
      const app = createHttpApp();
      const faults = createFaultInjector();
      faults.install(app, { service: 'scheduler' });
      app.get('/v1/jobs', () => 'ok');
      app.get('/v1/other', () => 'ok');
      const rule = faults.inject({ path: '/v1/jobs', nth, times, status: 503 });
      const statuses: number[] = [];
      for (const match of matching) {
        const res = await app.inject({ method: 'GET', url: match ? '/v1/jobs?x=1' : '/v1/other' });
        if (match) statuses.push(res.statusCode);
        else expect(res.statusCode).toBe(200);
      }
      const last = times === 'always' ? Number.POSITIVE_INFINITY : nth + times - 1;
      expect(statuses).toEqual(statuses.map((_s, i) => (i + 1 >= nth && i + 1 <= last ? 503 : 200)));
      expect(rule.matched).toBe(statuses.length);
      expect(rule.applied).toBe(statuses.filter((status) => status === 503).length);
      await app.close();
    },
  );
});
