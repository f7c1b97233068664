import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  remove(): void;
}

/**
 * Generates, with the `openssl` command, a throwaway CA, a server certificate for 127.0.0.1 and
 * localhost, and a client certificate, all signed by that CA (EC P-256 keys: fast).
 */
export function generateCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'sked-http-tls-'));
  const path = (name: string) => join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string) =>
    ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', path(name));

  key('ca.key');
  ssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-sha256',
    '-days',
    '2',
    '-subj',
    '/CN=sked test CA',
    '-out',
    'ca.pem',
  );

  const issue = (name: string, subject: string, ext: string) => {
    key(`${name}.key`);
    ssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    writeFileSync(path(`${name}.ext`), ext);
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  };
  issue(
    'server',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  issue('client', '/CN=sked test client', 'extendedKeyUsage=clientAuth\n');

  return {
    dir,
    caFile: path('ca.pem'),
    serverCertFile: path('server.pem'),
    serverKeyFile: path('server.key'),
    clientCertFile: path('client.pem'),
    clientKeyFile: path('client.key'),
    ca: readFileSync(path('ca.pem'), 'utf8'),
    serverCert: readFileSync(path('server.pem'), 'utf8'),
    serverKey: readFileSync(path('server.key'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
