/**
 * Exec into an allocation's task over a WebSocket (`/v1/client/allocation/:alloc_id/exec`): the
 * frame protocol, real processes on pipes or a pseudo-terminal, ACL and the loopback rule.
 *
 * @packageDocumentation
 */
export { ExecExposureError, assertExecExposureAllowed } from './bind.js';
export type { ExecClientMessage, ParseFrameResult } from './frames.js';
export { MAX_CLIENT_FRAME_BYTES, parseClientFrame, serverFrame } from './frames.js';
export type { ExecParams, ParseExecParamsResult } from './params.js';
export { parseExecParams } from './params.js';
export type { ExecProcess, ExecProcessEvents, ExecSpawnOptions } from './process.js';
export { ExecCommandError, exitCodeOf, resolveProgram, spawnExecProcess } from './process.js';
export { EXEC_ROUTE, registerExecRoute } from './route.js';
export type {
  ExecAllocation,
  ExecContext,
  ExecRequest,
  ExecSessionHandle,
  ExecSocket,
  ExecTask,
} from './session.js';
export {
  CLOSE_NORMAL,
  CLOSE_POLICY,
  CLOSE_SERVER_ERROR,
  closeReason,
  isLoopbackAddress,
  serveExecSession,
} from './session.js';
export type { ExecSandbox } from './sandbox.js';
export { BWRAP, bubblewrapSandbox, detectExecSandbox, probeExecSandbox } from './sandbox.js';
