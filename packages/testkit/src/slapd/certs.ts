/**
 * A throwaway certificate authority for the test directory: a CA, a server certificate for
 * `localhost` / `127.0.0.1` signed by it, a client certificate signed by it, and an unrelated CA
 * (the "wrong CA" of TLS tests). Made once per process with `openssl` (EC P-256 keys: fast).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM texts and file paths of the test certificates. */
export interface SlapdCertificates {
  /** Directory holding the files. */
  readonly dir: string;
  /** The CA that signed the server and client certificates (PEM). */
  readonly ca: string;
  /** Path of {@link SlapdCertificates.ca}. */
  readonly caFile: string;
  /** A CA that signed nothing here: verification against it fails (PEM). */
  readonly wrongCa: string;
  /** Server certificate (PEM; subject `CN=localhost`, SAN `localhost`, `127.0.0.1`). */
  readonly serverCert: string;
  /** Path of the server certificate. */
  readonly serverCertFile: string;
  /** Path of the server key. */
  readonly serverKeyFile: string;
  /** Client certificate (PEM; `CN=sked-client`, clientAuth). */
  readonly clientCert: string;
  /** Client key (PEM, unencrypted). */
  readonly clientKey: string;
}

const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function openssl(args: readonly string[]): Promise<void> {
  await run('openssl', [...args], { timeout: 60_000 });
}

/** A certificate and key `<name>.crt`/`<name>.key`: a CA when `signer` is absent, else signed by it. */
async function certificate(
  dir: string,
  name: string,
  cn: string,
  extensions: readonly string[],
  signer?: string,
): Promise<void> {
  const ca =
    signer === undefined ? [] : ['-CA', join(dir, `${signer}.crt`), '-CAkey', join(dir, `${signer}.key`)];
  await openssl([
    'req',
    '-x509',
    ...KEY,
    '-days',
    '3',
    '-subj',
    `/CN=${cn}`,
    ...ca,
    '-keyout',
    join(dir, `${name}.key`),
    '-out',
    join(dir, `${name}.crt`),
    ...extensions.flatMap((e) => ['-addext', e]),
  ]);
}

const CA_EXTENSIONS = ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'];
const LEAF = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment'];

async function make(): Promise<SlapdCertificates> {
  const dir = mkdtempSync(join(tmpdir(), 'sked-slapd-tls-'));
  await Promise.all([
    certificate(dir, 'ca', 'sked test CA', CA_EXTENSIONS),
    certificate(dir, 'wrong-ca', 'sked wrong CA', CA_EXTENSIONS),
  ]);
  const server = ['subjectAltName=DNS:localhost,IP:127.0.0.1', 'extendedKeyUsage=serverAuth'];
  await Promise.all([
    certificate(dir, 'server', 'localhost', [...LEAF, ...server], 'ca'),
    certificate(dir, 'client', 'sked-client', [...LEAF, 'extendedKeyUsage=clientAuth'], 'ca'),
  ]);
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
  return {
    dir,
    ca: read('ca.crt'),
    caFile: join(dir, 'ca.crt'),
    wrongCa: read('wrong-ca.crt'),
    serverCert: read('server.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCert: read('client.crt'),
    clientKey: read('client.key'),
  };
}

let made: Promise<SlapdCertificates> | undefined;

/**
 * The test certificates, made on first use and shared by every directory of the process.
 * @returns PEM texts and paths.
 * @throws when `openssl` fails (its message).
 */
export function slapdCertificates(): Promise<SlapdCertificates> {
  made ??= make().catch((error: unknown) => {
    made = undefined;
    throw error;
  });
  return made;
}
