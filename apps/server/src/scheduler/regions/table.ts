/**
 * The membership table of a federation: which member serves each region, keyed by region name in
 * a `Map` (a name from a peer is never a plain object's key). Each member is authoritative for its
 * own record; the others' records are merged by `Epoch` (the member's start time), so a member that
 * restarts, even on another port, replaces its old record everywhere, and a record is never dropped
 * because its member stopped answering.
 */
import { parseMemberAddress, regionNameProblem } from './names.js';

/** One member as members tell each other (the wire and the data dir). */
export interface MemberRecord {
  /** The region it serves. */
  readonly Region: string;
  /** Its scheduling address, `http://HOST:PORT`. */
  readonly Address: string;
  /** Datacenter of its simulated nodes. */
  readonly Datacenter: string;
  /** Its name, `<host name>.<region>`. */
  readonly Name: string;
  /** When it started (Unix ms): a higher epoch of a region replaces a lower one. */
  readonly Epoch: number;
}

/** How a member last answered this one. */
export type MemberStatus = 'alive' | 'failed' | 'unknown';

/** A member and what this member knows of its health. */
export interface MemberState extends MemberRecord {
  /** `alive` after an answer, `failed` after a failed call, `unknown` before either. */
  readonly status: MemberStatus;
  /** Failed calls in a row. */
  readonly failures: number;
  /** Unix ms of the last answer, or 0. */
  readonly lastContact: number;
}

/** Where the table keeps the other members across restarts (the data dir). */
export interface MemberStore {
  /** The stored records (checked again when loaded). */
  load(): readonly unknown[];
  /** Replaces the stored records. */
  save(records: readonly MemberRecord[]): void;
}

/** Most members a table holds: a peer's answer with more is cut there. */
export const MAX_MEMBERS = 1000;

/**
 * Checks a member record from outside (a peer, the data dir).
 * @param value - The parsed JSON.
 * @returns The record, or the problem as a sentence.
 */
export function readMemberRecord(value: unknown): { record: MemberRecord } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'a member is an object with Region, Address, Datacenter, Name and Epoch' };
  }
  const own = (key: string): unknown =>
    Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  const region = own('Region');
  const problem = regionNameProblem(region);
  if (problem !== undefined) return { error: `Region: ${problem}` };
  const address = parseMemberAddress(own('Address'));
  if ('error' in address) return { error: `Address: ${address.error}` };
  const datacenter = own('Datacenter');
  const name = own('Name');
  const epoch = own('Epoch');
  if (typeof datacenter !== 'string' || datacenter.length > 256) {
    return { error: 'Datacenter: expected a string of at most 256 characters' };
  }
  if (typeof name !== 'string' || name.length > 512) {
    return { error: 'Name: expected a string of at most 512 characters' };
  }
  if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0) {
    return { error: 'Epoch: expected a non-negative integer' };
  }
  return {
    record: {
      Region: region as string,
      Address: address.address,
      Datacenter: datacenter,
      Name: name,
      Epoch: epoch,
    },
  };
}

/** The membership table of one member. */
export interface MemberTable {
  /** This member's own record. */
  readonly self: MemberRecord;
  /** The member serving `region`, other than this one; undefined when none is known. */
  get(region: string): MemberState | undefined;
  /** Every other member, in region order. */
  others(): MemberState[];
  /** Every known region name, this one included, sorted. */
  regions(): string[];
  /** Every record, this member's first: what a sync carries. */
  records(): MemberRecord[];
  /**
   * Merges records heard from a peer (a peer's own record counts as direct contact).
   * @param records - The records.
   * @param from - The region of the peer they came from, when a peer answered.
   * @returns Whether anything changed (a new member or a new address).
   */
  merge(records: readonly MemberRecord[], from?: string): boolean;
  /** Notes a failed call to a member. */
  failed(region: string): void;
}

/**
 * Creates the table, with the records the store kept (those that no longer read are skipped).
 * @param self - This member's record.
 * @param options - The store, and `warn` (told about skipped records and rival members).
 * @returns The table.
 */
export function createMemberTable(
  self: MemberRecord,
  options: { readonly store?: MemberStore | undefined; readonly warn?: (message: string) => void } = {},
): MemberTable {
  const members = new Map<string, MemberState>();
  const warn = options.warn ?? ((message: string) => process.stderr.write(`sked-server: ${message}\n`));
  const warnedRivals = new Set<string>();
  const save = (): void => {
    try {
      options.store?.save([...members.values()].map(recordOf));
    } catch (error) {
      warn(
        `cannot keep the region members in the data dir: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  const put = (record: MemberRecord, direct: boolean): boolean => {
    if (record.Region === self.Region) {
      if (record.Address !== self.Address && record.Epoch > self.Epoch && !warnedRivals.has(record.Address)) {
        warnedRivals.add(record.Address);
        warn(`the member at ${record.Address} also claims region ${JSON.stringify(self.Region)}`);
      }
      return false;
    }
    const known = members.get(record.Region);
    const now = Date.now();
    // the newer epoch wins; two records of one epoch (two processes started in the same
    // millisecond) are ordered by address, so every member picks the same one
    const newer =
      known === undefined ||
      record.Epoch > known.Epoch ||
      (record.Epoch === known.Epoch && record.Address > known.Address);
    if (newer) {
      if (known === undefined && members.size >= MAX_MEMBERS) return false;
      members.set(record.Region, {
        ...recordOf(record),
        status: direct ? 'alive' : 'unknown',
        failures: 0,
        lastContact: direct ? now : 0,
      });
      return known === undefined || known.Address !== record.Address;
    }
    if (direct && record.Epoch === known.Epoch && record.Address === known.Address) {
      members.set(record.Region, { ...known, status: 'alive', failures: 0, lastContact: now });
    }
    return false;
  };

  for (const stored of options.store?.load() ?? []) {
    const read = readMemberRecord(stored);
    if ('error' in read) warn(`a stored region member is skipped: ${read.error}`);
    else put(read.record, false);
  }

  return {
    self,
    get: (region) => members.get(region),
    others: () => [...members.values()].sort((a, b) => compare(a.Region, b.Region)),
    regions: () => [self.Region, ...members.keys()].sort(compare),
    records: () => [self, ...[...members.values()].map(recordOf)],
    merge(records, from) {
      let changed = false;
      for (const record of records) {
        if (put(record, record.Region === from)) changed = true;
      }
      if (changed) save();
      return changed;
    },
    failed(region) {
      const known = members.get(region);
      if (known !== undefined)
        members.set(region, { ...known, status: 'failed', failures: known.failures + 1 });
    },
  };
}

/** Byte order of names (as the service sorts strings), not the locale's. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function recordOf(record: MemberRecord): MemberRecord {
  return {
    Region: record.Region,
    Address: record.Address,
    Datacenter: record.Datacenter,
    Name: record.Name,
    Epoch: record.Epoch,
  };
}
