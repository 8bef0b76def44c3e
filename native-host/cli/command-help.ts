import type { FlagSpec } from './args';

/**
 * What `getlist <command> --help` prints. Each command file exports one, built from the same flag
 * table it passes to `parseArgs`, so an option cannot be accepted without being documented
 * (test/cli/help.test.ts checks this on the built CLI).
 */
export interface CommandHelp {
  /** The command and its positionals, e.g. `load URL`; the options are appended from `flags`. */
  synopsis: string;
  /** One line for the list in `getlist --help`. */
  summary: string;
  /** A few sentences on what the command does and prints. */
  description: string;
  /** The table the command's parser uses. */
  flags: Readonly<Record<string, FlagSpec>>;
  /** Further sections after the options, e.g. the strategies. */
  sections?: ReadonlyArray<HelpSection>;
}

export interface HelpSection {
  title: string;
  /** Rows of [term, meaning], aligned like the options; a row with an empty term continues the one above. */
  rows: ReadonlyArray<readonly [string, string]>;
}

/** Help text is wrapped to this many columns. */
const WIDTH = 100;

/** `--name VALUE` as help shows it. */
function flagTerm(name: string, spec: FlagSpec): string {
  return spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value ?? 'VALUE'}`;
}

function flagText(spec: FlagSpec): string {
  const notes = [spec.required ? 'required' : undefined, spec.default !== undefined ? `default: ${spec.default}` : undefined].filter(Boolean);
  return notes.length > 0 ? `${spec.description} (${notes.join('; ')})` : spec.description;
}

/** `getlist load URL [--strategy a,b,...] [--json] …`: every option, in table order. */
export function usageLine(synopsis: string, flags: Readonly<Record<string, FlagSpec>>): string {
  const terms = Object.entries(flags).map(([name, spec]) => (spec.required ? flagTerm(name, spec) : `[${flagTerm(name, spec)}]`));
  return [`getlist ${synopsis}`, ...terms].join(' ');
}

/** Greedy word wrap; words longer than the width stay whole. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

/** Two aligned columns; the second wraps under itself. */
export function formatRows(rows: ReadonlyArray<readonly [string, string]>, indent = 2): string[] {
  const termWidth = Math.max(0, ...rows.map(([term]) => term.length));
  const pad = ' '.repeat(indent);
  const textWidth = Math.max(30, WIDTH - indent - termWidth - 2);
  return rows.flatMap(([term, text]) =>
    wrap(text, textWidth).map((line, i) => `${pad}${(i === 0 ? term : '').padEnd(termWidth)}  ${line}`.trimEnd()),
  );
}

export function formatCommandHelp(help: CommandHelp): string {
  const options = Object.entries(help.flags).map(([name, spec]): [string, string] => [flagTerm(name, spec), flagText(spec)]);
  const out = [
    ...formatRows([['usage:', usageLine(help.synopsis, help.flags)]], 0),
    '',
    ...wrap(help.description, WIDTH),
    '',
    ...(options.length > 0 ? ['options:', ...formatRows(options)] : ['options: none']),
  ];
  for (const section of help.sections ?? []) out.push('', `${section.title}:`, ...formatRows(section.rows));
  return `${out.join('\n')}\n`;
}

/** `getlist --help`: the commands, aligned, with their one-line summaries. */
export function formatOverview(version: string, commands: Readonly<Record<string, { help: CommandHelp }>>): string {
  const rows: Array<[string, string]> = [
    ...Object.entries(commands).map(([name, c]): [string, string] => [name, c.help.summary]),
    ['help', 'show this, or `getlist help <command>` (same as `getlist <command> --help`)'],
    ['version', 'print the version'],
  ];
  return [
    `getlist ${version}: a browser-side connection scheduler`,
    '',
    'usage: getlist <command> [options]',
    '',
    'commands:',
    ...formatRows(rows),
    '',
    'Run `getlist <command> --help` for its options, their defaults and what they do.',
    '',
  ].join('\n');
}
