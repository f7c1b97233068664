/**
 * Test support for sked (private): fast-check arbitraries for the `@sked/model` types, invalid
 * mutations for property tests, and seeded deterministic datasets that tests and benchmarks share.
 *
 * See `packages/testkit/README.md`.
 *
 * @packageDocumentation
 */

// Arbitraries
export {
  allocationArbitrary,
  allocationMetricArbitrary,
  csiVolumeArbitrary,
  deploymentArbitrary,
  evaluationArbitrary,
  eventArbitrary,
  eventEnvelopeArbitrary,
  execClientFrameArbitrary,
  execServerFrameArbitrary,
  indexArbitrary,
  isoTimeArbitrary,
  jobArbitrary,
  jobInputArbitrary,
  jobListStubArbitrary,
  jobRegisterRequestArbitrary,
  jobSummaryArbitrary,
  ldapConfigRequestArbitrary,
  metaArbitrary,
  nameArbitrary,
  nanosecondsArbitrary,
  nodeArbitrary,
  peeringArbitrary,
  taskEventArbitrary,
  taskGroupInputArbitrary,
  taskInputArbitrary,
  taskStateArbitrary,
  unixNanosecondsArbitrary,
} from './arbitraries.js';
// Invalid mutations
export { invalidMutation, invalidMutations, replaceAt, schemaLeaves } from './mutation.js';
export type { Mutation, SchemaLeaf } from './mutation.js';
// Datasets
export { generateDataset, generateJobs, toJobListStub } from './dataset.js';
export type { Dataset, DatasetOptions } from './dataset.js';
export { createRandom } from './random.js';
export type { Random } from './random.js';
