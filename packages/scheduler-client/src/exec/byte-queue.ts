/** The byte queue behind an exec session's `stdout` and `stderr`. */

/** A single-consumer queue of byte chunks: the socket pushes, the reader iterates. */
export interface ByteQueue {
  /** Adds a chunk (ignored after `end`). */
  push(chunk: Uint8Array): void;
  /** Ends the iteration once the chunks already queued are read. */
  end(): void;
  /** Bytes queued and not yet read. */
  readonly buffered: number;
  /** The chunks, in order. */
  readonly iterable: AsyncIterable<Uint8Array>;
}

/** A single-consumer async iterable of byte chunks fed by the socket. */
export function byteQueue(onLevel: (bytes: number) => void): ByteQueue {
  const chunks: Uint8Array[] = [];
  let buffered = 0;
  let ended = false;
  let waiter: (() => void) | undefined;
  const wake = (): void => {
    const next = waiter;
    waiter = undefined;
    next?.();
  };
  return {
    push(chunk: Uint8Array): void {
      if (ended) return;
      chunks.push(chunk);
      buffered += chunk.byteLength;
      onLevel(buffered);
      wake();
    },
    end(): void {
      ended = true;
      wake();
    },
    get buffered(): number {
      return buffered;
    },
    iterable: {
      async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
        for (;;) {
          const chunk = chunks.shift();
          if (chunk !== undefined) {
            buffered -= chunk.byteLength;
            onLevel(buffered);
            yield chunk;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => {
            waiter = resolve;
          });
        }
      },
    } as AsyncIterable<Uint8Array>,
  };
}
