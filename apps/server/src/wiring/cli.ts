import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseByteSize } from '@sked/model';
import { DEFAULTS } from '../defaults.js';
import { parseMemberAddress, regionNameProblem } from '../scheduler/regions/index.js';
import { parseMount } from '../secrets/index.js';
import { parseStateFlags, STATE_FLAGS, STATE_USAGE } from './cli-state.js';
import type { StartServerOptions } from './server.js';

/** Usage text printed by `sked-server --help`. */
export const USAGE = `Usage: sked-server [options]

Runs the sked sample server: a local stand-in for the scheduling service's HTTP API.

Options:
  --bind ADDR             Address to listen on (default ${DEFAULTS.bind})
  --scheduler-port PORT   Port of the scheduling service API (default ${DEFAULTS.schedulerPort}; 0 picks a free port)
  --region NAME           Region this server serves (default ${DEFAULTS.region})
  --join URL              Join the federation of regions of the sked-server whose scheduling
                          address is URL (repeatable; retried until it answers)
  --advertise URL         Scheduling address the other members use to reach this one (default:
                          the address it listens on; give it with --bind 0.0.0.0 or behind NAT)
  --nodes N               Number of simulated client nodes (default ${DEFAULTS.nodes})
  --datacenter NAME       Datacenter of the simulated nodes (default ${DEFAULTS.datacenter})
  --acl                   Enforce ACL tokens (with --acl-tokens FILE; without it a management
                          token named "bootstrap" with a random secret is created and printed)
  --acl-tokens FILE       JSON file of ACL tokens (see README)
  --demo                  Register a few sample jobs of each type at start
  --max-body SIZE         Largest accepted request body: bytes, or with a unit, KB/MB (1000) or
                          KiB/MiB (1024) (default ${DEFAULTS.maxBody / (1024 * 1024)}MiB)
  --enable-raw-exec       Enable the raw_exec task driver (runs real processes on this machine)
  --heartbeat-ms MS       Heartbeat interval of event streams, exec sessions and mesh peering
                          streams in milliseconds (default ${DEFAULTS.heartbeatMs})
  --mesh-port PORT        Port of the mesh service API (default ${DEFAULTS.meshPort}; 0 picks a free port; 0 too
                          when --scheduler-port is 0 and this flag is absent)
${STATE_USAGE}  --secrets-port PORT     Port of the secrets service API (default ${DEFAULTS.secretsPort}; 0 picks a free port)
  --secrets-root-token-file FILE
                          Read the root token of the secrets service from FILE (its first
                          line; at most 4 KiB)
  --secrets-root-token T  Root token of the secrets service. Prefer SKED_SECRETS_ROOT_TOKEN or
                          --secrets-root-token-file: a command-line argument is readable by
                          every local user (ps, /proc/PID/cmdline). Without any of the three,
                          a token is generated and printed once
  --ldap-mount NAME       Mount of the LDAP auth method under auth/ (default ${DEFAULTS.ldapMount})
  --allowed-host NAME     Also answer requests whose Host header names NAME (repeatable; besides
                          the listener's own address and loopback names; * allows any host)
  --no-exec-sandbox       Run exec commands on the host, not in a sandbox (exec into a mock task
                          then needs alloc-node-exec, as raw_exec tasks do)
  --fault-control         Serve the fault injection endpoint /v1/sked/faults on the scheduling
                          listener (management token with --acl; see README "Testing with faults")
  -h, --help              Print this help and exit
`;

/** What the command line asks for. */
export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'run'; readonly options: StartServerOptions }
  | { readonly kind: 'error'; readonly message: string };

function parseInteger(flag: string, text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text)) return `${flag} expects an integer, not ${JSON.stringify(text)}`;
  const value = Number(text);
  if (value < min || value > max) {
    return `${flag} must be between ${min} and ${max}, not ${value}`;
  }
  return value;
}

/**
 * Parses the command line of `sked-server`.
 * @param argv - Arguments after the script name.
 * @param env - Environment (`SKED_SECRETS_ROOT_TOKEN`, below the flags).
 * @returns What to do: print help, run with options, or fail with a message.
 */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        bind: { type: 'string' },
        'scheduler-port': { type: 'string' },
        region: { type: 'string' },
        join: { type: 'string', multiple: true },
        advertise: { type: 'string' },
        nodes: { type: 'string' },
        datacenter: { type: 'string' },
        acl: { type: 'boolean' },
        'acl-tokens': { type: 'string' },
        demo: { type: 'boolean' },
        'max-body': { type: 'string' },
        'enable-raw-exec': { type: 'boolean' },
        'heartbeat-ms': { type: 'string' },
        'mesh-port': { type: 'string' },
        ...STATE_FLAGS,
        'secrets-port': { type: 'string' },
        'secrets-root-token': { type: 'string' },
        'secrets-root-token-file': { type: 'string' },
        'ldap-mount': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'no-exec-sandbox': { type: 'boolean' },
        'fault-control': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message: message.replace(/\. To specify a positional.*$/s, '') };
  }
  const values = parsed.values;
  if (values.help === true) return { kind: 'help' };

  const options: { -readonly [K in keyof StartServerOptions]: StartServerOptions[K] } = {};
  if (values.bind !== undefined) {
    if (values.bind.trim() === '') return { kind: 'error', message: '--bind expects an address' };
    options.bind = values.bind;
  }
  if (values['scheduler-port'] !== undefined) {
    const port = parseInteger('--scheduler-port', values['scheduler-port'], 0, 65535);
    if (typeof port === 'string') return { kind: 'error', message: port };
    options.schedulerPort = port;
  }
  if (values.region !== undefined) {
    const problem = regionNameProblem(values.region);
    if (problem !== undefined)
      return {
        kind: 'error',
        message: `--region expects ${problem.replace(/^a region name is /, 'a name of ')}`,
      };
    options.region = values.region;
  }
  if (values.join !== undefined) {
    const join: string[] = [];
    for (const text of values.join) {
      const read = parseMemberAddress(text);
      if ('error' in read)
        return {
          kind: 'error',
          message: `--join expects ${read.error.replace(/^a member address is /, '')}`,
        };
      join.push(read.address);
    }
    options.join = join;
  }
  if (values.advertise !== undefined) {
    const read = parseMemberAddress(values.advertise);
    if ('error' in read)
      return {
        kind: 'error',
        message: `--advertise expects ${read.error.replace(
          /^a member address is the scheduling address of another sked-server/,
          'the scheduling address the other members reach this sked-server at',
        )}`,
      };
    options.advertise = read.address;
  }
  if (values.nodes !== undefined) {
    const nodes = parseInteger('--nodes', values.nodes, 0, 1000);
    if (typeof nodes === 'string') return { kind: 'error', message: nodes };
    options.nodes = nodes;
  }
  if (values.datacenter !== undefined) {
    if (!/^[A-Za-z0-9_.-]+$/.test(values.datacenter)) {
      return {
        kind: 'error',
        message: `--datacenter expects a name of letters, digits, "-", "_" or ".", not ${JSON.stringify(values.datacenter)}`,
      };
    }
    options.datacenter = values.datacenter;
  }
  if (values['acl-tokens'] !== undefined && values.acl !== true) {
    return { kind: 'error', message: '--acl-tokens requires --acl' };
  }
  if (values.acl === true) options.acl = true;
  if (values['acl-tokens'] !== undefined) options.aclTokens = values['acl-tokens'];
  if (values.demo === true) options.demo = true;
  if (values['fault-control'] === true) options.faultControl = true;
  if (values['max-body'] !== undefined) {
    const size = parseByteSize(values['max-body']);
    if (!size.ok || size.bytes === 0) {
      const why = size.ok ? 'is zero' : size.message;
      return {
        kind: 'error',
        message: `--max-body expects a size such as 1048576, 512KiB or 10MiB: ${JSON.stringify(values['max-body'])} ${why}`,
      };
    }
    options.maxBody = size.bytes;
  }
  if (values['enable-raw-exec'] === true) options.enableRawExec = true;
  if (values['heartbeat-ms'] !== undefined) {
    const ms = parseInteger('--heartbeat-ms', values['heartbeat-ms'], 1, 3_600_000);
    if (typeof ms === 'string') return { kind: 'error', message: ms };
    options.heartbeatMs = ms;
  }
  if (values['mesh-port'] !== undefined) {
    const port = parseInteger('--mesh-port', values['mesh-port'], 0, 65535);
    if (typeof port === 'string') return { kind: 'error', message: port };
    options.meshPort = port;
  }
  const stateError = parseStateFlags(values, options);
  if (stateError !== undefined) return { kind: 'error', message: stateError };
  const secretsError = parseSecretsFlags(values, env, options);
  if (secretsError !== undefined) return { kind: 'error', message: secretsError };
  const securityError = parseSecurityFlags(values, options);
  if (securityError !== undefined) return { kind: 'error', message: securityError };
  return { kind: 'run', options };
}

/** Longest root token file read. */
const MAX_TOKEN_FILE = 4096;

/** The root token in a file (its first line), or a message saying why it cannot be read. */
function readTokenFile(path: string): { token: string } | { error: string } {
  const flag = '--secrets-root-token-file';
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (!fstatSync(fd).isFile()) return { error: `${flag} ${JSON.stringify(path)} is not a file` };
    const buffer = Buffer.alloc(MAX_TOKEN_FILE + 1);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    if (length > MAX_TOKEN_FILE) {
      return { error: `${flag} ${JSON.stringify(path)} is larger than ${MAX_TOKEN_FILE} bytes` };
    }
    const token = (buffer.toString('utf8', 0, length).split(/\r?\n/)[0] ?? '').trim();
    if (token === '') return { error: `${flag} ${JSON.stringify(path)} holds no token` };
    return { token };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { error: `${flag} cannot read ${JSON.stringify(path)} (${code})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function parseSecurityFlags(
  values: { 'allowed-host'?: string[]; 'no-exec-sandbox'?: boolean },
  options: { -readonly [K in keyof StartServerOptions]: StartServerOptions[K] },
): string | undefined {
  const hosts = values['allowed-host'] ?? [];
  for (const host of hosts) {
    if (!/^(\*|\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.:-]+)$/.test(host)) {
      return `--allowed-host expects a host name or address, not ${JSON.stringify(host)}`;
    }
  }
  if (hosts.length > 0) options.allowedHosts = hosts;
  if (values['no-exec-sandbox'] === true) options.execSandbox = false;
  return undefined;
}

function parseSecretsFlags(
  values: {
    'secrets-port'?: string;
    'secrets-root-token'?: string;
    'secrets-root-token-file'?: string;
    'ldap-mount'?: string;
  },
  env: Readonly<Record<string, string | undefined>>,
  options: { -readonly [K in keyof StartServerOptions]: StartServerOptions[K] },
): string | undefined {
  if (values['secrets-port'] !== undefined) {
    const port = parseInteger('--secrets-port', values['secrets-port'], 0, 65535);
    if (typeof port === 'string') return port;
    options.secretsPort = port;
  }
  const file = values['secrets-root-token-file'];
  if (file !== undefined && values['secrets-root-token'] !== undefined) {
    return '--secrets-root-token and --secrets-root-token-file cannot be used together';
  }
  let fromFile: string | undefined;
  if (file !== undefined) {
    const read = readTokenFile(file);
    if ('error' in read) return read.error;
    fromFile = read.token;
  }
  const token = values['secrets-root-token'] ?? fromFile ?? env['SKED_SECRETS_ROOT_TOKEN'];
  if (token !== undefined && token !== '') {
    if (token.trim() !== token || /\s|\p{Cc}/u.test(token)) {
      const source =
        values['secrets-root-token'] !== undefined
          ? '--secrets-root-token'
          : fromFile !== undefined
            ? '--secrets-root-token-file'
            : 'SKED_SECRETS_ROOT_TOKEN';
      return `${source} expects a token without spaces or control characters`;
    }
    options.secretsRootToken = token;
  } else if (values['secrets-root-token'] !== undefined) {
    return '--secrets-root-token expects a token, not an empty string';
  }
  if (values['ldap-mount'] !== undefined) {
    const mount = parseMount(values['ldap-mount']);
    if ('error' in mount) return mount.error;
    options.ldapMount = values['ldap-mount'];
  }
  return undefined;
}

/**
 * The options `sked-server` starts with: the parsed flags, plus the command's listener ports where
 * the flags give none (4646, 8200 and 8500; `startServer()` alone binds free ports). With
 * `--scheduler-port 0`, the secrets and mesh listeners get free ports too unless given.
 * @param options - The options of a `run` command.
 * @returns The options with every port set.
 */
export function withCliPorts(options: StartServerOptions): StartServerOptions {
  const free = options.schedulerPort === 0;
  return {
    ...options,
    schedulerPort: options.schedulerPort ?? DEFAULTS.schedulerPort,
    secretsPort: options.secretsPort ?? (free ? 0 : DEFAULTS.secretsPort),
    meshPort: options.meshPort ?? (free ? 0 : DEFAULTS.meshPort),
  };
}
