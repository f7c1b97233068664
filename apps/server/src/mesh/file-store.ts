import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createMemoryPeeringStore, type PeeringSnapshot, type PeeringStore } from './store.js';

/** A mesh state file that cannot be used; the message says why, never quoting a secret. */
export class MeshStateError extends Error {
  /** Literal class name. */
  override readonly name = 'MeshStateError' as const;
}

function load(file: string): PeeringSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MeshStateError(
      `cannot read the mesh state file ${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    throw new MeshStateError(`the mesh state file ${JSON.stringify(file)} is not valid JSON`);
  }
  const snapshot = json as Partial<PeeringSnapshot> | null;
  if (
    typeof snapshot !== 'object' ||
    snapshot === null ||
    typeof snapshot.clusterId !== 'string' ||
    !Number.isSafeInteger(snapshot.index) ||
    !Array.isArray(snapshot.peerings)
  ) {
    throw new MeshStateError(
      `the mesh state file ${JSON.stringify(file)} is not a mesh state (expected clusterId, index and peerings)`,
    );
  }
  return snapshot as PeeringSnapshot;
}

/**
 * A peering store kept in memory and saved whole to a JSON file after every write (written to a
 * temporary file, then renamed, so a crash leaves the old or the new state; mode 0600, since it
 * holds the stream secrets). Heartbeat times are not in the store and cost no write.
 *
 * This is the small stand-in that lets a killed and restarted `sked-server` keep its peerings; a
 * durable store on SQLite can replace it behind the same {@link PeeringStore} interface.
 *
 * @param file - Path of the state file; created on the first write.
 * @returns The store.
 * @throws {@link MeshStateError} when the file exists but cannot be read or is not a mesh state.
 */
export function createFilePeeringStore(file: string): PeeringStore {
  const initial = load(file);
  return createMemoryPeeringStore({
    initial,
    onWrite(snapshot) {
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(snapshot), { mode: 0o600 });
      renameSync(temporary, file);
    },
  });
}
