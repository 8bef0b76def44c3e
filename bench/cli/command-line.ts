/**
 * The command lines of the bench/ entry points, on `node:util.parseArgs`. One table per entry point
 * configures the parser and writes its `--help`, so the help lists every option the parser accepts
 * (hidden internal ones aside), each with its default.
 *
 * Every failure is one line, made by the entry point's own `usage` function so it carries that
 * entry point's stable code (`E_BENCH_USAGE`, `E_REPORT_USAGE`; exit status 2): an unknown option,
 * a missing or empty value, a value given to a flag, an option given twice (never "the last one
 * wins"), a stray argument.
 */
import { parseArgs } from 'node:util';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One-letter alias, e.g. `h`. */
  short?: string;
  /** How the help shows the value, e.g. `N`, `a,b,…`. Strings only. @default 'VALUE' */
  value?: string;
  /** What the option does, one line. */
  help: string;
  /** The default as the help shows it; left out for flags and options with none. */
  default?: string;
  /** Internal (e.g. a mode the entry point re-executes itself in): parsed but not in --help. */
  hidden?: boolean;
}

export interface CommandSpec {
  /** The help's first line, without `usage: `. */
  usage: string;
  /** Lines after the options: what the command does, exit statuses, … */
  notes?: readonly string[];
  /** `--help` / `-h` is added to every command. */
  options: Readonly<Record<string, OptionSpec>>;
  /** Whether arguments that are not options are allowed (files, a subcommand). @default false */
  positionals?: boolean;
}

export interface CommandLine {
  /** Every option given, by long name; a flag is `true`, a string never empty. */
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** `--help` or `-h` was given: print {@link helpText} and stop. */
  help: boolean;
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };

function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, help: HELP };
}

/** `usage: …`, then one aligned line per visible option with its default, then the notes. */
export function helpText(spec: CommandSpec): string {
  const rows = Object.entries(optionsOf(spec)).filter(([, o]) => !o.hidden).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    return [flag, `${o.help}${o.default !== undefined ? ` (default: ${o.default})` : ''}`] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: ${spec.usage}`,
    '',
    'options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
  ].join('\n');
}

/** The option a parseArgs message names: `Option '--runs <value>' argument missing` → `--runs`. */
function quotedOption(message: string): string {
  return /'(-[^\s']*)/.exec(message)?.[1] ?? 'an option';
}

function translate(err: unknown, spec: CommandSpec): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quotedOption(message)}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${JSON.stringify(/'([^']*)'/.exec(message)?.[1] ?? '')}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      // `Option '--runs <value>' argument missing`, `Option '-h, --help' does not take an argument`
      const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
      const flag = quoted.split(/[\s,]+/).find((t) => t.startsWith('--')) ?? quotedOption(message);
      return optionsOf(spec)[flag.slice(2)]?.type === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`;
    }
    default:
      throw err;
  }
}

/**
 * Parses `argv` against `spec`. Throws `usage(message)` for anything wrong; the message is one line
 * and ends with `(try --help)`.
 */
export function parseCommandLine(argv: readonly string[], spec: CommandSpec, usage: (message: string) => Error): CommandLine {
  const options = optionsOf(spec);
  const fail = (message: string): Error => usage(`${message} (try --help)`);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }])),
      allowPositionals: spec.positionals ?? false,
      strict: true,
      tokens: true,
    });
  } catch (err) {
    throw fail(translate(err, spec));
  }
  const seen = new Set<string>();
  for (const t of parsed.tokens) {
    if (t.kind !== 'option') continue;
    if (seen.has(t.name)) throw fail(`--${t.name} given more than once`);
    seen.add(t.name);
    if (t.value === '') throw fail(`--${t.name} needs a value`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  return { values, positionals: parsed.positionals, help: values.help === true };
}

/** `a,b,,c` → `['a', 'b', 'c']`, each name once; undefined when the option was not given. */
export function listValue(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
}

/**
 * An integer option in [min, max], or `dflt` when not given. Throws `usage(…)` naming the option,
 * the range and what arrived.
 */
export function intValue(value: string | boolean | undefined, name: string, dflt: number, min: number, max: number, usage: (message: string) => Error): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max) {
    throw usage(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}
