/**
 * Typed events: an {@link Event} whose `Payload` follows from its `Topic`, and a guard that checks
 * it at run time.
 *
 * @packageDocumentation
 */
import type { Static } from 'typebox';

import type { Event } from './event.js';
import { EventPayloadKey, type EventPayload } from './event-payloads.js';
import { ownValue } from './own.js';

/**
 * The payload type of each topic of {@link EventTopic} (`*` aside), keyed by topic: the static types
 * of {@link EventPayload}.
 *
 * @since 0.2.0
 */
export type EventPayloads = { [T in keyof typeof EventPayload]: Static<(typeof EventPayload)[T]> };

/**
 * A topic whose payload has a type: every {@link EventTopic} but `*`.
 *
 * @since 0.2.0
 */
export type TypedEventTopic = keyof EventPayloads;

/**
 * The fields every event has besides `Topic` and `Payload`.
 *
 * @since 0.2.0
 */
export type EventHeader = Omit<Event, 'Topic' | 'Payload'>;

/**
 * An event of topic `T`, with the payload of that topic (`EventOf<'Job'>['Payload']` is `{ Job }`).
 *
 * @remarks `Type` stays a string: the service may report any {@link EventType} on a topic (an
 * evaluation created by a registration can carry `JobRegistered`).
 * @typeParam T - The topic.
 * @since 0.2.0
 */
export interface EventOf<T extends TypedEventTopic> extends Omit<Event, 'Topic' | 'Payload'> {
  /** The topic. */
  Topic: T;
  /** The object the event is about, wrapped in the topic's key (see {@link EventPayloadKey}). */
  Payload: EventPayloads[T];
}

/**
 * An event of any topic this version types: a union discriminated by `Topic`.
 *
 * @since 0.2.0
 */
export type KnownEvent = { [T in TypedEventTopic]: EventOf<T> }[TypedEventTopic];

/**
 * An event of a topic this version does not type (a newer server's): it passes through unchanged.
 *
 * @remarks Its payload's values are typed `never` only so that a test of `Topic` against a known
 * topic narrows `Payload` in a {@link TypedEvent} (TypeScript cannot take the known topics out of
 * `string`). Read such a payload as `Record<string, unknown>`, or test the event with
 * {@link isEventOf} first.
 * @since 0.2.0
 */
export interface UnknownTopicEvent extends Omit<Event, 'Topic' | 'Payload'> {
  /** A topic other than those of {@link TypedEventTopic}. */
  Topic: string;
  /** The payload, whose shape this version does not know. */
  Payload: { readonly [key: string]: never };
}

/**
 * What the event stream carries: a {@link KnownEvent}, whose payload `Topic` narrows, or an
 * {@link UnknownTopicEvent}. Every one is also an {@link Event}.
 *
 * @example
 * ```ts
 * import type { TypedEvent } from '@sked/model';
 *
 * function describe(event: TypedEvent): string {
 *   if (event.Topic === 'Job') return `job ${event.Payload.Job.ID} is ${event.Payload.Job.Status}`;
 *   if (event.Topic === 'Allocation') return `allocation ${event.Payload.Allocation.ClientStatus}`;
 *   return `${event.Topic} ${event.Type} ${event.Key}`;
 * }
 * ```
 * @since 0.2.0
 */
export type TypedEvent = KnownEvent | UnknownTopicEvent;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Tells whether an event is of `topic` and carries that topic's payload key with an object in it
 * (`{ Node: {...} }` for `Node` and `NodeDrain`), narrowing it to {@link EventOf}.
 *
 * @remarks The payload's fields are not validated (that is `validate(EventPayload[topic], event.Payload)`);
 * a value that is not an event object at all is `false`, never an exception.
 * @param event - An event, typed or plain (parsed from the stream, for example).
 * @param topic - The topic to test for.
 * @returns `true` when `event.Topic` is `topic` and its payload holds an object under the topic's key.
 * @example
 * ```ts
 * import { isEventOf, type Event } from '@sked/model';
 *
 * declare const event: Event;
 * if (isEventOf(event, 'Evaluation')) console.log(event.Payload.Evaluation.Status);
 * ```
 * @since 0.2.0
 */
export function isEventOf<T extends TypedEventTopic>(event: Event, topic: T): event is EventOf<T> {
  if (!isObject(event) || event.Topic !== topic || !isObject(event.Payload)) return false;
  const key = ownValue<string>(EventPayloadKey, topic);
  return key !== undefined && Object.hasOwn(event.Payload, key) && isObject(event.Payload[key]);
}
