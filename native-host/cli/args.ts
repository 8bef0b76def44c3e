import { CliError } from './cli-error';

export interface FlagSpec {
  /** `boolean` flags take no value; `string` flags take the next argument (or `--flag=value`). */
  type: 'boolean' | 'string';
  /** What the option does, shown in `getlist <command> --help`. */
  description: string;
  /** The value's placeholder in help, e.g. `MS`, `FILE`, `a,b,...`. @default 'VALUE' */
  value?: string;
  /** What applies when the option is absent, shown as `(default: …)` in help. */
  default?: string;
  /** The command fails without it (checked by the command; shown without brackets in the usage line). */
  required?: boolean;
  /** A `string` flag that may be given several times (curl's `--resolve`); every value is kept in `lists`. */
  repeatable?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  /** The last value of each flag given. */
  flags: Map<string, string | true>;
  /** Every value of each repeatable flag, in order. */
  lists: Map<string, string[]>;
}

/**
 * Parses `argv` against the flags a command accepts. Unknown flags, missing values and repeated
 * flags are usage errors that name the flag, so the user sees exactly what to fix.
 */
export function parseArgs(command: string, argv: readonly string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const s = spec[name];
    if (!s) {
      throw new CliError('E_USAGE', `getlist ${command}: unknown option --${name}; try \`getlist help ${command}\``);
    }
    if (flags.has(name) && !s.repeatable) throw new CliError('E_USAGE', `getlist ${command}: --${name} given more than once`);
    if (s.type === 'boolean') {
      if (eq >= 0) throw new CliError('E_USAGE', `getlist ${command}: --${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new CliError('E_USAGE', `getlist ${command}: --${name} needs a value`);
    }
    flags.set(name, value);
    if (s.repeatable) lists.set(name, [...(lists.get(name) ?? []), value]);
  }
  return { positionals, flags, lists };
}

/** For a command that takes no positional argument: `E_USAGE` naming the first one given. */
export function noPositionals(args: ParsedArgs, usage: string): void {
  if (args.positionals.length > 0) throw new CliError('E_USAGE', `unexpected argument ${JSON.stringify(args.positionals[0])}\nusage: ${usage}`);
}

/** An integer flag within [min, max], or the default. */
export function intFlag(args: ParsedArgs, name: string, dflt: number, min: number, max: number): number {
  const v = args.flags.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== 'string' || !/^-?\d+$/.test(v) || n < min || n > max) {
    throw new CliError('E_USAGE', `--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v === true ? '' : v)}`);
  }
  return n;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** Every value of a repeatable flag (none: `[]`). */
export function listFlag(args: ParsedArgs, name: string): string[] {
  return args.lists.get(name) ?? [];
}

export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true;
}
