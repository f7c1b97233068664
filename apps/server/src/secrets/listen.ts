/**
 * Starts the secrets service on its own listener (the third listener of `sked-server`).
 */
import { createSecretsService, type SecretsService } from './index.js';
import type { SecretsStore } from './store.js';

/** Options of {@link listenSecrets}. */
export interface ListenSecretsOptions {
  /** Address to listen on. */
  readonly host: string;
  /** Port; 0 picks a free one. */
  readonly port: number;
  /** Root token; generated when absent. */
  readonly rootToken?: string;
  /** Mount name (`ldap`). */
  readonly mount?: string;
  /** Largest accepted body. */
  readonly maxBody?: number;
  /** The store (in memory by default). */
  readonly store?: SecretsStore;
  /** A service already built (then root token, mount, body limit and store are its own). */
  readonly service?: SecretsService;
}

/** The running secrets listener. */
export interface SecretsListener {
  /** Base address, `http://HOST:PORT`. */
  readonly url: string;
  /** The service behind it. */
  readonly service: SecretsService;
  /** The root token in effect (given or generated). */
  readonly rootToken: string;
  /** Stops listening; connections still open after 2 s are cut. */
  close(): Promise<void>;
}

/**
 * Builds the secrets service and listens.
 * @param options - Address, port, root token, mount, body limit.
 * @returns The listener.
 * @throws the listen error (port in use) or a configuration error (bad mount).
 */
export async function listenSecrets(options: ListenSecretsOptions): Promise<SecretsListener> {
  const service =
    options.service ??
    createSecretsService({
      ...(options.rootToken === undefined ? {} : { rootToken: options.rootToken }),
      ...(options.mount === undefined ? {} : { mount: options.mount }),
      ...(options.maxBody === undefined ? {} : { maxBody: options.maxBody }),
      ...(options.store === undefined ? {} : { store: options.store }),
    });
  const { app } = service;
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host =
    options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    service,
    rootToken: options.rootToken ?? (service.generatedRootToken as string),
    close() {
      closed ??= (async () => {
        const force = setTimeout(() => app.server.closeAllConnections(), 2000);
        try {
          await app.close();
        } finally {
          clearTimeout(force);
        }
      })();
      return closed;
    },
  };
}
