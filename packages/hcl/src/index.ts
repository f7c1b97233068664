/**
 * HCL2 text to its JSON form, shared by the sample server (job files) and the CLI (volume files):
 * one loader of the reference parser, one guard against hostile nesting, one error type.
 *
 * @packageDocumentation
 */
export { HclError, type HclErrorKind, parseHcl } from './parse.js';
export { hclNesting, MAX_HCL_NESTING } from './nesting.js';
