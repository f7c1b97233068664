/** A confirmation: the native modal `<dialog>` (focus kept inside, Escape cancels). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** What {@link ConfirmDialog} asks. */
export interface ConfirmProps {
  /** The question, the dialog's name. */
  readonly title: string;
  /** The confirming button's text (`Stop job`). */
  readonly confirmLabel: string;
  /** Called on confirmation. */
  readonly onConfirm: () => void;
  /** Called on cancel (button, Escape). */
  readonly onCancel: () => void;
  readonly children?: ComponentChildren;
}

/**
 * A modal confirmation, open while rendered; Cancel has the focus first.
 * @param props - Question, button text, handlers, details.
 */
export function ConfirmDialog(props: ConfirmProps): preact.JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    cancel.current?.focus();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="actions">
        <button type="button" ref={cancel} onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
