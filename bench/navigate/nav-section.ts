import { summariesOf, type NavCell } from './nav-cell';
import { navTable } from './nav-table';

/** RESULTS.md's heading for the navigation bench. */
export const NAV_SECTION = 'The next page before the click';

/** One navigate.js results file as the report reads it. */
export interface NavResultsFile {
  file: string;
  command?: string;
  date?: string;
  cells?: NavCell[];
}

/**
 * The body of RESULTS.md's navigation section: each run's command, then one table of every cell. A
 * cell of a later file replaces the same browser, link and cache of an earlier one (a cell walked
 * again), in the earlier one's place: each row is still one cell's contenders side by side, over
 * its walks (`--walks N`, pooled in nav-cell.ts), summarised by the code that writes the report.
 */
export function navSectionBody(results: readonly NavResultsFile[]): string {
  const cells = new Map<string, NavCell>();
  // Summaries are worked out again from the runs: a file keeps those of the code that walked it.
  for (const c of results.flatMap((r) => r.cells ?? [])) cells.set(`${c.browser}\n${c.link}\n${c.cache}`, { ...c, summaries: summariesOf(c) });
  return [
    ...results.map((r) => `- \`${r.command ?? 'node dist/bench/navigate.js'}\` (${r.date ?? 'undated'}): every step in \`${r.file}\``),
    '',
    'bench/README.md, "The next page before the click", says what each column is.',
    '',
    navTable([...cells.values()]),
  ].join('\n');
}
