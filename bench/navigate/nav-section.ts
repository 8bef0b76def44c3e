import type { NavCell } from './nav-cell';
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

/** The body of RESULTS.md's navigation section: each run's command, then one table of every cell. */
export function navSectionBody(results: readonly NavResultsFile[]): string {
  return [
    ...results.map((r) => `- \`${r.command ?? 'node dist/bench/navigate.js'}\` (${r.date ?? 'undated'}): every step in \`${r.file}\``),
    '',
    'bench/README.md, "The next page before the click", says what each column is.',
    '',
    navTable(results.flatMap((r) => r.cells ?? [])),
  ].join('\n');
}
