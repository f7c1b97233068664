/**
 * The list and read endpoints: the shapes `@sked/http` builds for every sked client.
 * A list is called for one page, or iterated with `pages`, `items` or followed with `watch`; a read
 * is called, or followed with `watch`. Breaking out of an iteration aborts the request in flight.
 */
export type { ListEndpoint, ReadEndpoint } from '@sked/http';
