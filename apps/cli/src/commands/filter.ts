import { Command } from 'commander';

import { globalsOf } from '../context.js';
import { CliError } from '../errors.js';
import { handler } from '../handler.js';
import { readInput } from '../job-file.js';
import { processOutput, toJson } from '../output.js';

async function check(command: Command): Promise<number> {
  const { formatDiagnostic, parseFilter } = await import('@sked/filter');
  const output = processOutput(globalsOf(command).json === true);
  const [expr] = command.processedArgs as [string];
  const result = parseFilter(expr);
  if (output.json) {
    output.out(
      toJson(
        result.ok ? { Valid: true, Diagnostics: [] } : { Valid: false, Diagnostics: result.diagnostics },
      ),
    );
    return result.ok ? 0 : 1;
  }
  if (result.ok) {
    output.out('Valid filter');
    return 0;
  }
  output.err(result.diagnostics.map((d) => formatDiagnostic(expr, d)).join('\n'));
  return 1;
}

/** Items of a JSON array, or of JSON lines (one value per non-empty line). */
export function readItems(content: string, name: string): { items: unknown[]; array: boolean } {
  if (/^\s*\[/.test(content)) {
    try {
      const value = JSON.parse(content) as unknown;
      if (Array.isArray(value)) return { items: value, array: true };
    } catch (error) {
      throw new CliError(`${name} is not a valid JSON array: ${(error as Error).message}`);
    }
  }
  const items: unknown[] = [];
  const lines = content.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch (error) {
      throw new CliError(`${name} line ${i + 1} is not JSON: ${(error as Error).message}`, {
        hint: 'Give a JSON array, or one JSON value per line.',
      });
    }
  }
  return { items, array: false };
}

async function evaluate(command: Command): Promise<number> {
  const { FilterEvaluationError, compileFilter, formatCaret, formatDiagnostic, parseFilter } =
    await import('@sked/filter');
  const output = processOutput(globalsOf(command).json === true);
  const [expr, file] = command.processedArgs as [string, string | undefined];
  const parsed = parseFilter(expr);
  if (!parsed.ok) {
    output.err(parsed.diagnostics.map((d) => formatDiagnostic(expr, d)).join('\n'));
    return 1;
  }
  const keep = compileFilter(parsed.ast);
  const name = file === undefined || file === '-' ? 'stdin' : file;
  const { items, array } = readItems(await readInput(file ?? '-', 'input'), name);
  const matches: unknown[] = [];
  for (const [i, item] of items.entries()) {
    try {
      if (keep(item)) matches.push(item);
    } catch (error) {
      if (!FilterEvaluationError.is(error)) throw error;
      throw new CliError(`Item ${i} of ${name}: ${error.message}\n${formatCaret(expr, error)}`);
    }
  }
  if (array || output.json) output.out(toJson(matches));
  else if (matches.length > 0) output.out(matches.map((m) => JSON.stringify(m)).join('\n'));
  return 0;
}

/** The `filter` command. */
export function filterCommand(): Command {
  return new Command('filter')
    .description('The filter language, offline')
    .addCommand(
      new Command('check')
        .description(
          'Check a filter expression: the diagnostic with a caret under the position, exit 1 when invalid',
        )
        .argument('<expr>', 'filter expression')
        .addHelpText(
          'after',
          '\nExample:\n  $ sked filter check \'Status == "running" and Meta.owner == "a"\'',
        )
        .action(handler(check)),
    )
    .addCommand(
      new Command('eval')
        .description('Print the items a filter selects from a JSON array or JSON lines (file or stdin)')
        .argument('<expr>', 'filter expression')
        .argument('[file]', 'JSON array or JSON lines; - or none reads stdin')
        .addHelpText(
          'after',
          "\nExample:\n  $ sked job status --json | sked filter eval 'Type == \"batch\"'\n  $ sked filter eval 'Priority != 50' jobs.json",
        )
        .action(handler(evaluate)),
    );
}
