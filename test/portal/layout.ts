import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** The smallest text, in CSS pixels as drawn (after any SVG scaling), that still reads. */
const MIN_FONT_PX = 11;

/** The inspection, as the page runs it: plain browser JavaScript. */
const INSPECT = readFileSync(join(__dirname, 'inspect-layout.js'), 'utf8');

/**
 * What a reader would see wrong on the page as it is drawn now, one sentence each: a word of a table
 * header, cell or term broken across lines (a date at its hyphens, a dotted name such as
 * `transaction.voided` at its dots), a select narrower than its longest choice, a chart of counts
 * with ticks between whole numbers, anything wider than the window or scrolling sideways,
 * text smaller than MIN_FONT_PX, text and controls drawn over each other, and `undefined`, `NaN` or
 * `[object …]` where a value should be. Generic: it knows no page, so a page added later is
 * held to the same.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  await page.evaluate('document.fonts.ready.then(() => undefined)');
  // A new viewport's tables are re-fitted by a ResizeObserver, whose callback runs in the next
  // rendering step, after setViewportSize has returned: two frames later it has run and been drawn.
  await page.evaluate(
    'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined))))',
  );
  return page.evaluate(`(${INSPECT})(${MIN_FONT_PX})`);
}
