/**
 * The filter box: a combobox named "Filter". Each change is checked in the page (`@sked/filter`,
 * the model's `Job` schema): a valid expression is handed on after a short pause (the view asks
 * the server with `filter=`), an invalid one shows the filter's diagnostic with its caret under the
 * box (tied to it with `aria-describedby`) and is not sent. Suggestions are a listbox of visible
 * options (ArrowDown/ArrowUp to move, Enter or Tab to take one, Escape to close, Ctrl+Space to ask).
 */
import type { CompletionItem } from '@sked/filter';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { accept, checkFilter, suggest, type Suggestions } from '../filter-state.js';

/** Milliseconds of quiet typing before a valid expression is applied. */
const APPLY_AFTER_MS = 300;

/** Props of {@link FilterBox}. */
export interface FilterBoxProps {
  /** The expression to start with (from the address). */
  readonly initial: string;
  /** Items shown (their map keys are suggested too). */
  readonly samples: readonly unknown[];
  /** Called with the text as typed (to keep it in the address). */
  readonly onText: (text: string) => void;
  /** Called with a valid expression to apply ('' for none). */
  readonly onApply: (text: string) => void;
}

const CLOSED: Suggestions = { from: 0, to: 0, items: [] };

/**
 * The filter box.
 * @param props - Initial text, samples and handlers.
 */
export function FilterBox(props: FilterBoxProps): preact.JSX.Element {
  const [text, setText] = useState(props.initial);
  const [options, setOptions] = useState<Suggestions>(CLOSED);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const check = useMemo(() => checkFilter(text), [text]);
  const open = options.items.length > 0;

  useEffect(() => {
    if (!check.ok) return undefined;
    const timer = setTimeout(() => props.onApply(text.trim()), APPLY_AFTER_MS);
    return () => clearTimeout(timer);
    // the handlers change with every render of the view; the text decides
  }, [text, check.ok]);

  const change = (next: string, cursor: number, always = false): void => {
    setText(next);
    props.onText(next);
    const found = suggest(next, cursor, props.samples, always);
    setOptions(found);
    setActive(found.items.length > 0 ? 0 : -1);
  };

  const take = (item: CompletionItem): void => {
    const done = accept(text, options, item);
    change(done.text, done.cursor);
    setOptions(CLOSED);
    queueMicrotask(() => input.current?.setSelectionRange(done.cursor, done.cursor));
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    const cursor = input.current?.selectionStart ?? text.length;
    if (event.key === ' ' && event.ctrlKey) {
      event.preventDefault();
      change(text, cursor, true);
      return;
    }
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      change(text, cursor, true);
      return;
    }
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + options.items.length) % options.items.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && active >= 0) {
      const item = options.items[active];
      if (item === undefined) return;
      event.preventDefault();
      take(item);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOptions(CLOSED);
    }
  };

  return (
    <div class="filter">
      <label for="filter">Filter</label>
      <div class="combo">
        <input
          id="filter"
          ref={input}
          type="text"
          role="combobox"
          autocomplete="off"
          spellcheck={false}
          placeholder='Status == "running" and Type == "service"'
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls="filter-options"
          aria-activedescendant={open && active >= 0 ? `filter-option-${active}` : undefined}
          aria-invalid={!check.ok}
          aria-describedby={check.ok ? 'filter-help' : 'filter-diagnostic'}
          value={text}
          onInput={(event) => change(event.currentTarget.value, event.currentTarget.selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          onBlur={() => setOptions(CLOSED)}
        />
        <ul id="filter-options" role="listbox" aria-label="Filter suggestions" hidden={!open}>
          {options.items.map((item, index) => (
            <li
              key={`${item.kind}:${item.label}`}
              id={`filter-option-${index}`}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                take(item);
              }}
            >
              {item.label}
              <span class="kind"> {item.kind}</span>
            </li>
          ))}
        </ul>
      </div>
      {check.ok ? (
        <p id="filter-help" class="hint">
          Filters on the server over the whole job (<code>Meta.team == "web"</code>,{' '}
          <code>"dc1" in Datacenters</code>). Ctrl+Space or ArrowDown suggests fields.
        </p>
      ) : (
        <pre id="filter-diagnostic" class="diagnostic" role="status">
          {check.formatted}
        </pre>
      )}
    </div>
  );
}
