/**
 * Wire constants of the list endpoints' query parameters.
 *
 * @packageDocumentation
 */

/**
 * The service's 400 message for `filter` combined with another filtering parameter of a list
 * endpoint (`prefix`; `node_id` or `plugin_id` on volumes). The server answers it; clients refuse
 * the same combination before sending it, in the same words.
 *
 * @since 0.1.0
 */
export const FilterConflictMessage = 'Filter expression cannot be used with other filter parameters';
