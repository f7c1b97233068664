/**
 * Starts the secrets service on its own listener (the second listener of `sked-server`).
 */
import { listenService, type RunningService, type ServiceListenOptions } from '../http/listen.js';
import { guardLocalOnly } from '../http/local-only.js';
import { createSecretsService, type SecretsService } from './service.js';
import type { SecretsStore } from './store.js';

/** Options of {@link startSecretsService}. */
export interface StartSecretsOptions extends ServiceListenOptions {
  /** Root token; generated when absent. */
  readonly rootToken?: string | undefined;
  /** Mount name (`ldap`). */
  readonly mount?: string | undefined;
  /** The store (in memory by default). */
  readonly store?: SecretsStore | undefined;
}

/** The running secrets service. */
export interface RunningSecrets extends RunningService {
  /** The service behind it. */
  readonly service: SecretsService;
  /** The root token in effect (given or generated). */
  readonly rootToken: string;
  /** Whether the root token was generated (print it once) rather than given. */
  readonly rootTokenGenerated: boolean;
}

/**
 * Builds the secrets service and listens.
 * @param options - Address, port, root token, mount, body limit, store, accepted hosts.
 * @returns The running service.
 * @throws the listen error (port in use) or a configuration error (bad mount, empty root token).
 */
export async function startSecretsService(options: StartSecretsOptions): Promise<RunningSecrets> {
  const service = createSecretsService({
    ...(options.rootToken === undefined ? {} : { rootToken: options.rootToken }),
    ...(options.mount === undefined ? {} : { mount: options.mount }),
    ...(options.maxBody === undefined ? {} : { maxBody: options.maxBody }),
    ...(options.store === undefined ? {} : { store: options.store }),
  });
  const { app } = service;
  guardLocalOnly(app, options.localOnly ?? {});
  options.faults?.install(app, { service: 'secrets' });
  const { url, close } = await listenService(app, options);
  return {
    url,
    app,
    service,
    rootToken: options.rootToken ?? (service.generatedRootToken as string),
    rootTokenGenerated: service.generatedRootToken !== undefined,
    close,
  };
}
