/** The form that asks for a token (kept in this tab's session storage only). */
import { useState } from 'preact/hooks';
import { saveToken, type TokenKind } from '../session.js';

const LABELS: Readonly<Record<TokenKind, { title: string; label: string; hint: string }>> = {
  acl: {
    title: 'This server checks ACL tokens',
    label: 'ACL token',
    hint: 'The scheduling and mesh services answered 403: give a token that allows this view (sked-server --acl prints the management token).',
  },
  secrets: {
    title: 'The secrets service needs a token',
    label: 'Secrets token',
    hint: 'The root token sked-server printed at start ("secrets root token: …"), or a token it issued.',
  },
};

/**
 * Asks for a token and keeps it for this tab.
 * @param props - Which token, and whether the one given was refused.
 */
export function TokenForm(props: { kind: TokenKind; refused: boolean }): preact.JSX.Element {
  const [value, setValue] = useState('');
  const text = LABELS[props.kind];
  const id = `token-${props.kind}`;
  return (
    <form
      class="panel token-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        saveToken(props.kind, value);
        setValue('');
      }}
    >
      <h2 id={`${id}-title`}>{text.title}</h2>
      <p id={`${id}-hint`}>
        {props.refused ? 'The token given does not allow this view. ' : ''}
        {text.hint} It is kept in this tab only, never in the address.
      </p>
      <label for={id}>{text.label}</label>
      <input
        id={id}
        type="password"
        autocomplete="off"
        spellcheck={false}
        required
        aria-describedby={`${id}-hint`}
        value={value}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <button type="submit">Use token</button>
    </form>
  );
}
