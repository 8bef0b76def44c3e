import { parseFirstResponseArgs } from '../../bench/zoo/first-response-args';

describe('zoo-first-response.js command line', () => {
  test('defaults: nginx and Apache, real-late’s document and two of its images, five fetches each', () => {
    expect(parseFirstResponseArgs([])).toEqual({ servers: ['nginx', 'apache'], page: 'real-late', paths: ['index.html', 'img/p1.gif', 'img/p0.gif'], fetches: 5 });
    expect(parseFirstResponseArgs(['--servers', 'h2o, trafficserver', '--page', 'real-small', '--paths', 'css/s0.css', '--fetches', '2'])).toEqual({ servers: ['h2o', 'trafficserver'], page: 'real-small', paths: ['css/s0.css'], fetches: 2 });
  });

  test.each([
    [['--servers', 'varnish'], 'not a zoo member that terminates TLS: varnish'],
    [['--servers', 'iis'], 'not a zoo member that terminates TLS: iis'],
    [['--servers', ','], '(none given)'],
    [['--page', 'real-news'], 'served over https, got real-news'],
    [['--page', 'pm95-2544-20'], 'served over https'],
    [['--paths', ','], 'expected one or more resources'],
    [['--fetches', '0'], '--fetches must be an integer ≥ 1, got 0'],
    [['--fetches', '1.5'], '--fetches must be an integer ≥ 1'],
  ])('%j is E_BENCH_USAGE saying what was expected', (argv, why) => {
    expect(() => parseFirstResponseArgs(argv)).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining(why) }));
  });
});
