/** Options of {@link runCrashLoop}. */
export interface CrashLoopOptions {
  /** Kills to make (at most). */
  readonly kills: number;
  /** Concurrent writing clients. */
  readonly clients: number;
  /** Ends the loop after this many seconds even before `kills` (0: no limit). */
  readonly seconds?: number;
  /** Kills made before `seconds` can end the loop, however long they take. @defaultValue 1 */
  readonly minKills?: number;
  /** Seed of the random choices. */
  readonly seed?: number;
  /** Receives a line per kill. */
  readonly log?: (line: string) => void;
}

/** What the loop saw. */
export interface CrashLoopResult {
  readonly kills: number;
  readonly acked: number;
  readonly jobs: number;
  readonly problems: string[];
}

/** Runs the kill -9 crash loop against dist/main.js (see crash-loop.mjs). */
export function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopResult>;
