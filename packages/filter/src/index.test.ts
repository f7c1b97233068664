import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

const srcDir = new URL('.', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.includes('.test')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('package', () => {
  it('imports no Node built-ins and no globals of Node (browser-safe)', () => {
    for (const file of sources(srcDir)) {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const spec of imports)
        expect(spec === 'chevrotain' || spec === 're2js' || spec?.startsWith('.')).toBe(true);
      expect(text).not.toMatch(/\b(process|Buffer|require)\s*[.(]/);
    }
  });

  it('exports the names of the contract', () => {
    for (const name of [
      'parseFilter',
      'compileFilter',
      'evaluateFilter',
      'filterItems',
      'printFilter',
      'filterBuilder',
      'filter',
      'completeFilter',
      'FilterSyntaxError',
      'FilterEvaluationError',
      'formatDiagnostic',
      'FilterLimits',
    ]) {
      expect(api).toHaveProperty(name);
    }
  });
});
