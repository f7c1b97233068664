import cliSpinners from 'cli-spinners';
import { createLogUpdate } from 'log-update';

import { formatDate, paint } from './output.js';

/**
 * How a command shows what it waits for: on a terminal a live block (spinner and the current
 * state, redrawn in place by log-update) under the lines that stay; otherwise plain timestamped
 * lines only, one per change, fit for logs and pipes.
 */
export interface Progress {
  /** True when the view redraws in place. */
  readonly live: boolean;
  /** A line that stays: `==>` heading when `heading`, indented otherwise. */
  log(line: string, heading?: boolean): void;
  /** Lines that stay, as they are (indented, no timestamp). */
  block(text: string): void;
  /** The live block (ignored in plain mode). */
  status(text: string): void;
  /** Ends the live block, leaving the screen as it is. */
  done(): void;
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '    ');
}

function stamp(line: string, heading: boolean): string {
  return `${heading ? '==>' : '   '} ${formatDate(new Date())}: ${line}`;
}

/** A plain-lines progress on `stream`. */
export function plainProgress(stream: NodeJS.WritableStream): Progress {
  return {
    live: false,
    log: (line, heading = false) => void stream.write(`${stamp(line, heading)}\n`),
    block: (text) => void stream.write(`${indent(text)}\n`),
    status: () => undefined,
    done: () => undefined,
  };
}

/** A live progress on the terminal `stream`. */
export function liveProgress(stream: NodeJS.WriteStream): Progress {
  const update = createLogUpdate(stream, { showCursor: false });
  const spinner = cliSpinners.dots;
  let frame = 0;
  let text = '';
  let finished = false;
  const draw = (): void => {
    if (finished) return;
    if (text === '') update('');
    else update(`${paint('cyan', spinner.frames[frame % spinner.frames.length] ?? '', stream)} ${text}`);
  };
  const timer = setInterval(() => {
    frame++;
    draw();
  }, spinner.interval);
  timer.unref();
  return {
    live: true,
    log(line, heading = false) {
      if (!finished) update.clear();
      stream.write(`${heading ? paint('bold', stamp(line, true), stream) : stamp(line, false)}\n`);
      draw();
    },
    block(text) {
      if (!finished) update.clear();
      stream.write(`${indent(text)}\n`);
      draw();
    },
    status(next) {
      text = next;
      draw();
    },
    done() {
      if (finished) return;
      clearInterval(timer);
      update.clear();
      update.done();
      finished = true;
    },
  };
}

/** Live on a terminal (unless `plain`), plain lines otherwise. */
export function createProgress(stream: NodeJS.WriteStream, plain = false): Progress {
  return stream.isTTY && !plain ? liveProgress(stream) : plainProgress(stream);
}
