import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commentsOf } from './path-references';

/**
 * What test/history-free.test.ts looks for. Two kinds of text a reader cannot act on:
 *
 * - a reference to the tracker or to a past work period ("issue <n>", "session <n>", "S<n>",
 *   "task <letter>", a pull request named by position, a file named `hints-s<n>-…`): nothing
 *   outside the team's notes says what it was, so the sentence must state the fact or reason it
 *   stood for;
 * - a measured figure pasted into a code comment ("took <t> ms over <n> rounds"): one machine's
 *   timing of one build, stale at the next change. The comment states the invariant or reason and
 *   names the doc or bench result that holds the measurement.
 *
 * Heuristics, tuned on this tree: test/history-free.test.ts plants what each must find and what it
 * must let pass.
 */

/** One finding: where, and the text that matched. */
export interface Finding {
  file: string;
  line: number;
  text: string;
}

/**
 * Numbered references to the tracker or to work periods, and the phrases that point at one.
 * `round` is not here: "round 2" is also slow start's second round trip.
 */
const WORK_PERIOD: readonly RegExp[] = [
  /\b(?:issue|session|sprint|ticket|milestone|iteration)s?(?:[ \t]+#?|#)\d+/gi,
  /\bitems?[ \t]+\d+(?:[ \t]*[–-][ \t]*\d+)?\b/gi,
  /\btasks?[ \t]+(?:#?\d+|[A-Z]\d?\b)/g,
  // "S<n>", "(s<n>:", and the same code inside a name: `hints-s<n>-cap10.json`, branch `s<n>-pm`.
  /\bS\d{1,3}\b/g,
  /\(s\d{1,3}[:)]/g,
  /(?:^|[\s`'"(/_-])s\d{1,3}(?=[-_][a-z0-9])/gim,
  /[-_]s\d{1,3}(?=\.[a-z]+\b)/gi,
  /\b(?:this|that|an? earlier|the previous|the next)[ \t]+(?:PR|pull request|sprint|ticket)\b/gi,
  /\b(?:this|an? earlier|the previous)[ \t]+session\b/gi,
  /\(was[: ][ \t]*[\d"'`]/gi,
];

/**
 * A citation of a committed bench result, `bench/results/<file>`. Result files are records of runs,
 * named when they ran (bench/results/ is not scanned): a doc may cite one by that name, and
 * test/path-references.test.ts checks that the file it names exists.
 */
const RESULTS_CITATION = /\bbench\/results\/[\w.*-]+(?:\/[\w.*-]+)*/g;

/** The work-period references in `text`, each with its line (1-based). */
export function workPeriodRefs(text: string): Array<{ line: number; text: string }> {
  const blanked = text.replace(RESULTS_CITATION, (m) => ' '.repeat(m.length));
  const out: Array<{ line: number; text: string }> = [];
  for (const re of WORK_PERIOD) {
    for (const m of blanked.matchAll(re)) out.push({ line: lineOf(blanked, m.index ?? 0), text: m[0].trim() });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** A path names a work period when one of its segments carries a code `s<n>`, as `hints-s<n>-cap10` would. */
export function namesWorkPeriod(path: string): boolean {
  return path.split(/[\\/]/).some((segment) => /(?:^|[-_.])[sS]\d{1,3}(?:[-_.]|$)/.test(segment));
}

/** A number with a unit of time, or a ratio to a baseline: what a measurement reports. */
const FIGURE = /(?:\d[\d,.]*\s?(?:[–-]\s?\d[\d,.]*\s?)?(?:ms|µs|us|ns|s|sec|seconds?|minutes?|min)\b|\d\.\d+\s?×)/;
/** Words that say a figure was observed on some run rather than defined. */
const OBSERVED = /\b(?:(?<!\b(?:is|are|be) )measured|measuring|(?<!\b(?:that|which|it) )took|we saw|saw|observed|on the bench|bench run|paired|median of|load average|in \d+ of \d+|over \d+ (?:runs|pairs|loads|rounds)|\d+ (?:runs|pairs|loads|rounds)\b|p50|p9[59]|read (?:at )?\d|reads? \d[\d,.]*\s?(?:ms|B\/ms|×))/i;

/**
 * Comments that report a measurement: a sentence holding both a figure (FIGURE) and a word saying
 * it was observed (OBSERVED). A sentence that only defines a constant ("one round trip, 100 ms on
 * this link") or cites a specification has no such word.
 */
export function measuredFigures(comment: string): string[] {
  const sentences = comment
    .replace(/\*\/\s*$/, '')
    .replace(/^\s*(?:\/\*\*?|\*|\/\/)\s?/gm, '')
    .replace(/\s+/g, ' ')
    .split(/(?<=[.;!?])\s+(?=[A-Z(`"'])|\s[-–]\s(?=[A-Z])/);
  return sentences.filter((s) => FIGURE.test(s) && OBSERVED.test(s)).map((s) => s.trim());
}

/** Text files the scan reads, by extension. */
const TEXT = /\.(?:ts|js|mjs|cjs|md|json|html|css|c|h|sh|php|txt|yml|yaml)$/;

/** Work-period references in the names of `files` (relative to `root`) and in the text of each text file. */
export function historyFindings(root: string, files: readonly string[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    if (namesWorkPeriod(file)) out.push({ file, line: 0, text: `file name: ${file}` });
    if (!TEXT.test(file)) continue;
    for (const r of workPeriodRefs(readFileSync(join(root, file), 'utf8'))) out.push({ file, ...r });
  }
  return out;
}

/** Measured figures in the comments of the non-test TypeScript and JavaScript sources among `files`. */
export function figureFindings(root: string, files: readonly string[], allowed: ReadonlyArray<{ file: string; includes: string }> = []): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    if (!/\.(?:ts|js|mjs|cjs)$/.test(file) || /\.(?:test|d)\.ts$/.test(file)) continue;
    const source = readFileSync(join(root, file), 'utf8');
    for (const c of commentsOf(source, file)) {
      for (const s of measuredFigures(c.text)) {
        if (!allowed.some((a) => a.file === file && s.includes(a.includes))) out.push({ file, line: c.line, text: s });
      }
    }
  }
  return out;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
