// Reads every package's vitest JSON result and prints the closing line `N passed, N failed`,
// after one line of the coverage that the packages measured (`coverage/coverage-summary.json`).
// Exits non-zero when a test failed, when a package that has tests produced no result,
// or when nothing ran at all (a coverage threshold is enforced by vitest in that package's run).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'apps', 'tests'];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const coverage = [];
for (const top of roots) {
  if (!existsSync(top)) continue;
  for (const name of readdirSync(top)) {
    const dir = join(top, name);
    const pkgFile = join(dir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    if (!pkg.scripts?.test) continue;
    const resultFile = join(dir, '.vitest-result.json');
    if (!existsSync(resultFile)) {
      missing.push(pkg.name);
      continue;
    }
    const coverageFile = join(dir, 'coverage', 'coverage-summary.json');
    if (existsSync(coverageFile)) {
      const { lines, branches } = JSON.parse(readFileSync(coverageFile, 'utf8')).total;
      coverage.push(`${pkg.name} ${lines.pct} % lines (${branches.pct} % branches)`);
    }
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    passed += result.numPassedTests ?? 0;
    failed += result.numFailedTests ?? 0;
    skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
    // a file that failed to load counts as a failure even with no test in it
    for (const file of result.testResults ?? []) {
      if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
    }
  }
}
if (coverage.length > 0) console.log(`coverage: ${coverage.join(', ')}`);
if (missing.length > 0) console.log(`no test result from: ${missing.join(', ')}`);
const ok = failed === 0 && missing.length === 0 && passed > 0 && skipped === 0;
if (skipped > 0) console.log(`${skipped} skipped or todo tests: each hides a gap`);
console.log(`${passed} passed, ${failed + missing.length} failed`);
process.exit(ok ? 0 : 1);
