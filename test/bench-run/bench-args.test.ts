/**
 * The command lines of the six bench/ entry points (bench/cli/command-line.ts): --help lists every
 * option the parser accepts, with its default; every mistake is one line with a stable code.
 */
import { join } from 'node:path';
import { helpText, parseCommandLine, type CommandSpec } from '../../bench/cli/command-line';
import { DEMO_LINK_COMMAND, parseDemoLinkArgs } from '../../bench/demo/demo-link-options';
import { ENGINE_COMMAND, parseEngineArgs } from '../../bench/engine/engine-args';
import { LINK_COMMAND, parseLinkArgs } from '../../bench/link/link-args';
import { parseReportArgs, REPORT_COMMAND } from '../../bench/report/write-report';
import { BENCH_COMMAND, parseBenchArgs } from '../../bench/matrix/matrix-args';
import { parseTraceArgs, TRACE_COMMAND } from '../../bench/trace/trace-args';

const ROOT = '/checkout';
const ENTRY_POINTS: ReadonlyArray<readonly [string, CommandSpec, (argv: string[]) => unknown, string]> = [
  ['bench.js', BENCH_COMMAND, (argv) => parseBenchArgs(argv, ROOT), 'E_BENCH_USAGE'],
  ['engine.js', ENGINE_COMMAND, parseEngineArgs, 'E_BENCH_USAGE'],
  ['link.js', LINK_COMMAND, parseLinkArgs, 'E_BENCH_USAGE'],
  ['report.js', REPORT_COMMAND, parseReportArgs, 'E_REPORT_USAGE'],
  ['trace.js', TRACE_COMMAND, parseTraceArgs, 'E_BENCH_USAGE'],
  ['demo-link.js', DEMO_LINK_COMMAND, parseDemoLinkArgs, 'E_BENCH_USAGE'],
];

function thrown(body: () => unknown): { code?: string; message?: string } | undefined {
  try {
    body();
  } catch (err) {
    return err as { code?: string; message?: string };
  }
  return undefined;
}

describe.each(ENTRY_POINTS)('%s', (name, spec, parse, code) => {
  const help = helpText(spec);

  test('--help names the script and lists every visible option, -h and --help alike', () => {
    expect(help.split('\n')[0]).toBe(`usage: ${spec.usage}`);
    expect(spec.usage).toContain(`dist/bench/${name}`);
    for (const [option, o] of Object.entries(spec.options)) {
      const line = help.split('\n').find((l) => new RegExp(`^ {2}(-\\w, )?--${option}( |$)`).test(l));
      if (o.hidden) expect(line).toBeUndefined();
      else expect(line === undefined ? undefined : line.includes(o.help) && (o.default === undefined || line.includes(`(default: ${o.default})`))).toBe(true);
    }
    expect(help).toContain('-h, --help');
    // report.js keeps --help a usage error (its tests ask for that); the others say "help".
    const h = thrown(() => expect(parse(['-h'])).toEqual({ mode: 'help' }));
    expect(h === undefined || (h.code === code && h.message === help)).toBe(true);
  });

  test.each([
    [['--bogus'], 'unknown option --bogus (try --help)'],
    [['-x'], 'unknown option -x (try --help)'],
    [['--help=yes'], '--help takes no value (try --help)'],
  ])(`%j fails with ${code} and one line`, (argv, message) => {
    expect(thrown(() => parse(argv))).toMatchObject({ code, message });
  });
});

describe('bench.js', () => {
  const run = (argv: string[]) => {
    const a = parseBenchArgs(argv, ROOT);
    if (a.mode !== 'run') throw new Error('not a run');
    return a;
  };
  test('defaults: one link at a time, the results file in the checkout, the plan\'s runs', () => {
    const quick = run(['--quick']);
    expect({ jobs: quick.jobs, out: quick.out, runs: quick.plan.runs, mode: quick.plan.mode }).toEqual({ jobs: 1, out: join(ROOT, 'bench', 'results', 'bench-quick-latest.json'), runs: 3, mode: 'quick' });
    expect(run(['--full']).plan.runs).toBe(5);
  });
  test('--links keeps the order given, --pages filters cells, = and space forms alike', () => {
    const a = run(['--full', '--links=mcmanus-300,pm95', '--pages', 'mcmanus-159,pm95-2544-10', '--runs', '2', '--jobs=4', '--out', 'x.json']);
    expect(a.plan.links.map((l) => [l.link, l.cells.map((c) => c.page)])).toEqual([['mcmanus-300', ['mcmanus-159']], ['pm95', ['pm95-2544-10']]]);
    expect({ runs: a.plan.runs, jobs: a.jobs, out: a.out }).toEqual({ runs: 2, jobs: 4, out: 'x.json' });
  });
  test.each([
    [[], 'give exactly one of --quick or --full (try --help)'],
    [['--quick', '--full'], 'give exactly one of --quick or --full (try --help)'],
    [['--quick', '--runs'], '--runs needs a value (try --help)'],
    [['--quick', '--runs', '--links', 'pm95'], '--runs needs a value (try --help)'],
    [['--quick', '--runs', '51'], '--runs must be an integer from 1 to 50, got "51"'],
    [['--quick', '--jobs', '0'], '--jobs must be an integer from 1 to 16, got "0"'],
    [['--quick', '--jobs', '2.5'], '--jobs must be an integer from 1 to 16, got "2.5"'],
    [['--quick', '--links', 'mobile'], '--links: mobile not in the quick plan'],
    [['--quick', '--links', ','], '--links needs a comma-separated value'],
    [['--quick', '--pages', 'almanac-p90'], 'no cell left after --links/--pages'],
    [['--quick', '--out', ''], '--out needs a value (try --help)'],
    [['--quick', '--quick'], '--quick given more than once (try --help)'],
    [['--quick', '--quick=1'], '--quick takes no value (try --help)'],
    [['--quick', 'pm95'], 'unexpected argument "pm95" (try --help)'],
  ])('%j: E_BENCH_USAGE, %s', (argv, message) => {
    expect(thrown(() => parseBenchArgs(argv, ROOT))).toMatchObject({ code: 'E_BENCH_USAGE', message });
  });
});

describe('engine.js, link.js, trace.js', () => {
  test('engine: --only picks a subset; every benchmark by default', () => {
    expect(parseEngineArgs([])).toEqual({ mode: 'run', json: false, only: new Set(['scheduler', 'loopback', 'demo']) });
    expect(parseEngineArgs(['--only=demo,scheduler', '--json'])).toEqual({ mode: 'run', json: true, only: new Set(['demo', 'scheduler']) });
    expect(thrown(() => parseEngineArgs(['--only', 'fast']))).toMatchObject({ code: 'E_BENCH_USAGE', message: '--only takes a list of scheduler, loopback, demo; got "fast"' });
  });
  test('link: one subcommand; --json with selfcheck only', () => {
    expect(parseLinkArgs(['selfcheck', '--json'])).toEqual({ mode: 'selfcheck', json: true });
    expect(parseLinkArgs(['cleanup'])).toEqual({ mode: 'cleanup' });
    for (const argv of [[], ['nope'], ['selfcheck', 'cleanup'], ['cleanup', '--json']]) {
      expect(thrown(() => parseLinkArgs(argv))).toMatchObject({ code: 'E_BENCH_USAGE' });
    }
  });
  test('trace: --link and --page required; strategy, scheme and sampling checked before any namespace', () => {
    expect(parseTraceArgs(['--link', 'mcmanus-100', '--page', 'mcmanus-159'])).toEqual({ mode: 'run', options: { link: 'mcmanus-100', page: 'mcmanus-159', strategy: 'getlist', scheme: 'http', ssEveryMs: 20 } });
    expect(parseTraceArgs(['--link', 'pm95', '--page', 'pm95-2544-10', '--strategy', 'h2', '--scheme', 'https', '--ss-every', '5'])).toMatchObject({ options: { strategy: 'h2', scheme: 'https', ssEveryMs: 5 } });
    expect(thrown(() => parseTraceArgs(['--page', 'x']))).toMatchObject({ code: 'E_BENCH_USAGE', message: '--link and --page are required (try --help)' });
    expect(thrown(() => parseTraceArgs(['--link', 'dsl', '--page', 'x']))).toMatchObject({ code: 'E_BENCH_UNKNOWN_LINK' });
    expect(thrown(() => parseTraceArgs(['--link', 'pm95', '--page', 'x', '--scheme', 'ftp']))).toMatchObject({ code: 'E_BENCH_USAGE', message: '--scheme must be http or https, got "ftp"' });
    expect(thrown(() => parseTraceArgs(['--link', 'pm95', '--page', 'x', '--strategy', 'fast']))).toMatchObject({ code: 'E_BENCH_USAGE' });
    expect(thrown(() => parseTraceArgs(['--link', 'pm95', '--page', 'x', '--ss-every', '0']))).toMatchObject({ code: 'E_BENCH_USAGE' });
  });
});

describe('parseCommandLine', () => {
  const spec: CommandSpec = { usage: 'x', options: { name: { type: 'string', short: 'n', help: 'a name' }, flag: { type: 'boolean', short: 'f', help: 'a flag' } } };
  const usage = (message: string) => Object.assign(new Error(message), { code: 'E_TEST_USAGE' });
  test('short aliases fill the long names, and errors name the long option', () => {
    expect(parseCommandLine(['-n', 'a', '-f'], spec, usage)).toEqual({ values: { name: 'a', flag: true }, positionals: [], help: false });
    expect(thrown(() => parseCommandLine(['-n'], spec, usage))).toMatchObject({ code: 'E_TEST_USAGE', message: '--name needs a value (try --help)' });
    expect(thrown(() => parseCommandLine(['--flag=1'], spec, usage))).toMatchObject({ message: '--flag takes no value (try --help)' });
    expect(thrown(() => parseCommandLine(['-n', 'a', '--name', 'b'], spec, usage))).toMatchObject({ message: '--name given more than once (try --help)' });
  });
});
