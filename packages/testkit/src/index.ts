/**
 * Test support for sked (private): fast-check arbitraries for the `@sked/model` types, typed job
 * factories for example tests, invalid mutations for property tests, and seeded deterministic
 * datasets that tests and benchmarks share.
 *
 * See `packages/testkit/README.md`.
 *
 * @packageDocumentation
 */

// Arbitraries
export {
  PROTOTYPE_NAMES,
  indexArbitrary,
  inputNameArbitrary,
  isoTimeArbitrary,
  metaArbitrary,
  nameArbitrary,
  nanosecondsArbitrary,
  unixNanosecondsArbitrary,
} from './arbitraries/common.js';
export {
  jobArbitrary,
  jobInputArbitrary,
  jobListStubArbitrary,
  jobRegisterRequestArbitrary,
  jobSummaryArbitrary,
  taskGroupInputArbitrary,
  taskInputArbitrary,
} from './arbitraries/jobs.js';
export {
  allocationArbitrary,
  allocationMetricArbitrary,
  csiVolumeArbitrary,
  deploymentArbitrary,
  evaluationArbitrary,
  taskEventArbitrary,
  taskStateArbitrary,
} from './arbitraries/allocations.js';
export {
  eventArbitrary,
  eventEnvelopeArbitrary,
  execClientFrameArbitrary,
  execServerFrameArbitrary,
} from './arbitraries/streams.js';
export { ldapConfigRequestArbitrary, nodeArbitrary, peeringArbitrary } from './arbitraries/members.js';
// Job factories
export { jobFactory, makeJob, makeStoredJob, makeTask, makeTaskGroup, makeWideJob } from './factories.js';
export type { JobOverrides, StoredJobOptions } from './factories.js';
// Invalid mutations
export { invalidMutation, invalidMutations, replaceAt, schemaLeaves } from './mutation.js';
export type { Mutation, SchemaLeaf } from './mutation.js';
// Datasets
export { generateDataset, generateJobs, toJobListStub } from './dataset.js';
export type { Dataset, DatasetOptions } from './dataset.js';
export { createRandom } from './random.js';
export type { Random } from './random.js';
