/**
 * Sizes written as text (`10GiB`, `500MB`, `4096`), read as the services read them (go-humanize's
 * `ParseBytes`): a CSI volume's capacity in a volume file, `sked-server --max-body`.
 *
 * @packageDocumentation
 */

/**
 * Result of {@link parseByteSize}.
 * @since 0.3.0
 */
export type ByteSizeResult =
  | {
      /** The text is a size. */
      readonly ok: true;
      /** Whole bytes. */
      readonly bytes: number;
    }
  | {
      /** The text is not a size. */
      readonly ok: false;
      /** What is wrong, as a sentence fragment after the value (`is not a size: ...`). */
      readonly message: string;
    };

// K is 1000 and Ki 1024, with or without a trailing b, in any case: the service's table.
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['', 1n],
  ['b', 1n],
  ...['k', 'm', 'g', 't', 'p', 'e'].flatMap((prefix, i): [string, bigint][] => {
    const decimal = 1000n ** BigInt(i + 1);
    const binary = 1024n ** BigInt(i + 1);
    return [
      [prefix, decimal],
      [`${prefix}b`, decimal],
      [`${prefix}i`, binary],
      [`${prefix}ib`, binary],
    ];
  }),
]);

/**
 * Reads a size as the service does: a number, optional spaces and a unit in any case: `B`, `K`/`KB`
 * (1000), `Ki`/`KiB` (1024), up to `E`/`EB` and `Ei`/`EiB`; no unit is bytes. `10m` and `10MB` are
 * 10,000,000 bytes, `10Mi` and `10MiB` 10,485,760. Computed exactly (`1.1KB` is 1100 bytes); a
 * size that is not a whole number of bytes, or above 2^53-1, is refused.
 *
 * @param text - The text.
 * @returns `{ ok: true, bytes }` or `{ ok: false, message }`.
 * @example
 * ```ts
 * parseByteSize('10GiB'); // { ok: true, bytes: 10_737_418_240 }
 * parseByteSize('1.5 GB'); // { ok: true, bytes: 1_500_000_000 }
 * ```
 * @since 0.3.0
 */
export function parseByteSize(text: string): ByteSizeResult {
  const match = /^\s*(\d{1,30})(?:\.(\d{1,30}))?\s*([A-Za-z]*)\s*$/.exec(text);
  if (!match)
    return { ok: false, message: `is not a size: write a number and a unit, e.g. "10GiB" or "500MB"` };
  const [, whole = '', fraction = '', unitText = ''] = match;
  const unit = UNITS.get(unitText.toLowerCase());
  if (unit === undefined) {
    const message = `has an unknown unit "${unitText}": use B, KB, MB, GB, TB, PB, EB or KiB ... EiB`;
    return { ok: false, message };
  }
  const scaled = BigInt(whole + fraction) * unit;
  const scale = 10n ** BigInt(fraction.length);
  if (scaled % scale !== 0n) return { ok: false, message: 'is not a whole number of bytes' };
  const bytes = scaled / scale;
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER))
    return { ok: false, message: `is more than ${Number.MAX_SAFE_INTEGER} bytes` };
  return { ok: true, bytes: Number(bytes) };
}
