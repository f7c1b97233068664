/**
 * The `sked` command line as a module: `createProgram()` builds the commander tree that the
 * `sked` bin runs.
 *
 * @packageDocumentation
 */
export { createProgram, VERSION } from './program.js';
