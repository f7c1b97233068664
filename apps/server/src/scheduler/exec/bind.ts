import { isLoopbackAddress } from './session.js';

const brand = Symbol.for('@sked/server/ExecExposureError');

/** Why the server refuses to start: exec would be open to the network without ACLs. */
export class ExecExposureError extends Error {
  /** Literal class name. */
  override readonly name = 'ExecExposureError' as const;
  /** The bind address that was refused. */
  readonly bind: string;
  readonly [brand] = true;
  /**
   * @param bind - The non-loopback bind address.
   */
  constructor(bind: string) {
    super(
      `Refusing to start: exec is enabled on the non-loopback address ${JSON.stringify(bind)} without ACLs; ` +
        'turn ACLs on (--acl --acl-tokens FILE), bind to 127.0.0.1, or disable exec.',
    );
    this.bind = bind;
  }
  /**
   * Whether a value is an {@link ExecExposureError}.
   * @param value - Anything.
   * @returns True for an {@link ExecExposureError}.
   */
  static is(value: unknown): value is ExecExposureError {
    return typeof value === 'object' && value !== null && brand in value;
  }
}

/**
 * The start-up rule of exec: allowed on a loopback bind, or anywhere when ACLs are on.
 * @param options - The bind address, whether ACLs are on and whether exec is enabled.
 * @throws {@link ExecExposureError} when exec is enabled on a non-loopback address without ACLs.
 */
export function assertExecExposureAllowed(options: {
  readonly bind: string;
  readonly aclEnabled: boolean;
  readonly execEnabled?: boolean;
}): void {
  if (options.execEnabled === false || options.aclEnabled) return;
  const host =
    options.bind.startsWith('[') && options.bind.endsWith(']') ? options.bind.slice(1, -1) : options.bind;
  if (host === 'localhost' || isLoopbackAddress(host)) return;
  throw new ExecExposureError(options.bind);
}
