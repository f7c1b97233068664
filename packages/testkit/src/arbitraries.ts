/**
 * fast-check arbitraries for the model: every generated value matches its `@sked/model` schema.
 * One file per family under `arbitraries/`; this module gathers the public ones.
 *
 * @packageDocumentation
 */
export {
  indexArbitrary,
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
export { nodeArbitrary } from './arbitraries/nodes.js';
export { ldapConfigRequestArbitrary, peeringArbitrary } from './arbitraries/secrets-mesh.js';
