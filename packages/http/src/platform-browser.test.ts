import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { ConfigError } from './errors.js';
import * as browser from './platform-browser.js';
import * as node from './platform.js';

// The two sides of `#platform` export the same names; the browser's refuse what a page cannot do.
describe('#platform', () => {
  it('has the same exports in Node and in a browser build', () => {
    expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
  });

  it('refuses to read a file in a browser, with a code the PEM reader names', () => {
    expect(() => browser.readTextFile('/etc/hostname')).toThrow(
      expect.objectContaining({ code: 'EBROWSER', message: 'a browser cannot read files' }),
    );
  });

  it('refuses TLS settings in a browser with a ConfigError saying why', () => {
    let caught: unknown;
    try {
      browser.createTlsFetch({ rejectUnauthorized: false });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.is(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/cannot be applied in a browser/);
  });

  it("reads files and makes dispatchers in Node (the transport's TLS path)", async () => {
    expect(() => resolveConfig({ tls: { caFile: '/nonexistent/ca.pem' } }, {}, 'SKED_')).toThrow(
      'Could not read the CA certificate file "/nonexistent/ca.pem" (option tls.caFile): no such file.',
    );
    const { dispatcher, fetch } = await node.createTlsFetch({ rejectUnauthorized: false })();
    expect(typeof (dispatcher as { dispatch?: unknown }).dispatch).toBe('function');
    expect(typeof fetch).toBe('function');
    void dispatcher.close();
  });
});
