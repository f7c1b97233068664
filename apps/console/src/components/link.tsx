/** A link inside the console: navigates without loading the page again. */
import type { ComponentChildren } from 'preact';
import { followLink } from '../router.js';

/**
 * An `<a>` whose plain click stays in the page.
 * @param props - The address, whether it is the current page, and the text.
 */
export function Link(props: {
  href: string;
  current?: boolean;
  children: ComponentChildren;
}): preact.JSX.Element {
  return (
    <a href={props.href} onClick={followLink} aria-current={props.current === true ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
