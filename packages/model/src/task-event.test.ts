import { describe, expect, it } from 'vitest';

import { newTaskEvent, TaskEvent, TaskEventType } from './allocation.js';
import { validate } from './validate.js';

describe('newTaskEvent', () => {
  it.each(Object.values(TaskEventType))('builds a complete, valid %j event', (type) => {
    const event = newTaskEvent(type, 1_700_000_000_000_000_000);
    expect(validate(TaskEvent, event)).toEqual({ ok: true, value: event });
    expect(event).toMatchObject({ Type: type, FailsTask: false, Message: '', ExitCode: 0 });
  });

  it('lets the given fields win over the empty values', () => {
    const event = newTaskEvent('Terminated', 5, { ExitCode: 3, Message: 'exit status 3', FailsTask: true });
    expect(event).toMatchObject({
      Type: 'Terminated',
      Time: 5,
      ExitCode: 3,
      Message: 'exit status 3',
      FailsTask: true,
    });
    expect(event.KillReason).toBe('');
  });
});
