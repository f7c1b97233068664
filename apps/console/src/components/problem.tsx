/** How a view shows a failed read or write. */
import { describeError } from '../use-watch.js';

/**
 * The error's sentence, announced to screen readers.
 * @param props - The error and what failed.
 */
export function Problem(props: { error: unknown; what: string }): preact.JSX.Element {
  return (
    <p class="problem" role="alert">
      {props.what}: {describeError(props.error)}
    </p>
  );
}
