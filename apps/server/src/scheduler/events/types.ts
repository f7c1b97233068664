/**
 * The shapes the event broker works with. They are structural on purpose: the cluster's events
 * (`Event` of `@sked/model`) fit them without the broker depending on every field.
 */

/** One event of the stream, as spec document 2 ("Event envelope") describes it. */
export interface StreamEvent {
  readonly Topic: string;
  readonly Type: string;
  readonly Key: string;
  readonly Namespace: string;
  readonly FilterKeys: readonly string[] | null;
  readonly Index: number;
  readonly Payload: unknown;
}

/** The events of one write of the cluster, all with the same index. */
export interface EventBatch {
  readonly Index: number;
  readonly Events: readonly StreamEvent[];
}
