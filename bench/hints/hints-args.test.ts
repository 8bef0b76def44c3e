import { HINTS_COMMAND, parseHintsArgs } from './hints-args';

const known = { links: ['mcmanus-100', 'hints-40-5'], defaultPages: ['almanac-median', 'pm95-2544-10'], isPage: (p: string) => ['almanac-median', 'pm95-2544-10', 'real-news'].includes(p) };
const usageError = (text: string) => expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining(text) });

describe('hints bench command line', () => {
  test('defaults: every link, the default pages, Chromium, 5 runs, the ideal variant', () => {
    expect(parseHintsArgs([], known)).toEqual({ runs: 5, links: known.links, pages: known.defaultPages, browsers: ['chromium'], hintsOff: false, ideal: true, detailed: false });
  });

  test('every option read', () => {
    expect(parseHintsArgs(['--runs', '9', '--links', 'mcmanus-100', '--pages', 'real-news', '--browsers', 'chromium,firefox', '--hints-off', '--no-ideal', '--detailed', '--queue-bdp', '0.5', '--dwell', '1000', '--out', 'x.json'], known)).toEqual({
      dwellMs: 1000, runs: 9, links: ['mcmanus-100'], pages: ['real-news'], browsers: ['chromium', 'firefox'], hintsOff: true, ideal: false, detailed: true, queueBdp: 0.5, out: 'x.json',
    });
  });

  test('--help is help, not a run (an unknown flag used to start a full run with the defaults)', () => {
    const args = parseHintsArgs(['--help'], known);
    expect(args.help).toContain('usage: node dist/bench/hints.js');
    for (const name of Object.keys(HINTS_COMMAND.options)) expect(args.help).toContain(`--${name}`);
  });

  test('unknown options, links, pages and browsers, bad numbers: usage errors naming what is wrong', () => {
    expect(() => parseHintsArgs(['--detail'], known)).toThrow(usageError('unknown option --detail'));
    expect(() => parseHintsArgs(['--links', 'mcmanus-200'], known)).toThrow(usageError('unknown link "mcmanus-200"; expected mcmanus-100, hints-40-5'));
    expect(() => parseHintsArgs(['--pages', 'almanac-mediam'], known)).toThrow(usageError('no bench page "almanac-mediam"'));
    expect(() => parseHintsArgs(['--browsers', 'safari'], known)).toThrow(usageError('chromium or firefox'));
    expect(() => parseHintsArgs(['--runs', '0'], known)).toThrow(usageError('--runs must be an integer from 1 to 100'));
    expect(() => parseHintsArgs(['--queue-bdp', '0'], known)).toThrow(usageError('--queue-bdp must be a positive number'));
    expect(() => parseHintsArgs(['--dwell', 'soon'], known)).toThrow(usageError('--dwell must be an integer'));
    expect(() => parseHintsArgs(['--runs', '3', '--runs', '4'], known)).toThrow(usageError('given more than once'));
    expect(() => parseHintsArgs(['stray'], known)).toThrow(usageError('unexpected argument'));
  });

  test('--table merges what was measured; options of a run beside it are refused, not ignored', () => {
    expect(parseHintsArgs(['--table', 'a.json,b.json', '--out', 'm.json'], known)).toMatchObject({ tables: ['a.json', 'b.json'], out: 'm.json' });
    expect(() => parseHintsArgs(['--table', 'a.json', '--runs', '3'], known)).toThrow(usageError('--runs would be ignored'));
  });
});
