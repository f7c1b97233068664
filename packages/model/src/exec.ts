/**
 * Frames of the interactive exec WebSocket, in both directions.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const Base64 = lazySchema(() =>
  Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$', 'x-expected': 'base64-encoded bytes' }),
);

/**
 * A stream chunk or its end: `{ data }` carries base64-encoded bytes, `{ close: true }` ends the stream.
 *
 * @since 0.1.0
 */
export const ExecStreamFrame = lazySchema(() =>
  Type.Object({
    /** Bytes of the chunk, base64-encoded (raw terminal bytes, including control sequences). Absent when closing. */
    data: Type.Optional(Base64),
    /** `true` when the stream is closed. Absent = `false`. */
    close: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link ExecStreamFrame} schema. */
export type ExecStreamFrame = Static<typeof ExecStreamFrame>;

/**
 * A frame the client sends. Exactly one of the shapes of the spec is meant per frame:
 * `{ version: 1, auth_token }` (first frame with `ws_handshake=true`), `{ stdin: { data } }`,
 * `{ stdin: { close: true } }`, `{ tty_size: { height, width } }` or `{}` (heartbeat).
 *
 * @since 0.1.0
 */
export const ExecClientFrame = lazySchema(() =>
  Type.Object({
    /** Protocol version of the authentication frame; always 1. */
    version: Type.Optional(Type.Literal(1)),
    /** Secret of the ACL token (authentication frame only). */
    auth_token: Type.Optional(Type.String()),
    /** Standard input chunk or its end. */
    stdin: Type.Optional(ExecStreamFrame),
    /** New terminal size, in characters. */
    tty_size: Type.Optional(
      Type.Object({
        /** Rows. */
        height: SafeInteger({ minimum: 0, maximum: 65535 }),
        /** Columns. */
        width: SafeInteger({ minimum: 0, maximum: 65535 }),
      }),
    ),
  }),
);
/** A value matching the {@link ExecClientFrame} schema. */
export type ExecClientFrame = Static<typeof ExecClientFrame>;

/**
 * A frame the server sends: `{ stdout: ... }`, `{ stderr: ... }`, `{ exited: true, result: { exit_code } }`
 * or `{}` (heartbeat).
 *
 * @since 0.1.0
 */
export const ExecServerFrame = lazySchema(() =>
  Type.Object({
    /** Standard output chunk or its end. */
    stdout: Type.Optional(ExecStreamFrame),
    /** Standard error chunk or its end. */
    stderr: Type.Optional(ExecStreamFrame),
    /** `true` once the process has exited (then `result` is present). */
    exited: Type.Optional(Type.Boolean()),
    /** Outcome of the process. */
    result: Type.Optional(
      Type.Object({
        /** Exit code of the process. */
        exit_code: SafeInteger(),
      }),
    ),
  }),
);
/** A value matching the {@link ExecServerFrame} schema. */
export type ExecServerFrame = Static<typeof ExecServerFrame>;
