/**
 * The automated accessibility check: axe-core run inside the page (WCAG 2.1 A and AA rules and
 * axe's best practices), its serious and critical violations returned.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** A violation as reported: the rule, its impact and where. */
export interface Violation {
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core on the page as it is now.
 * @param page - The page.
 * @returns The serious and critical violations (none for an accessible view).
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const found = await (globalThis as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return found.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
