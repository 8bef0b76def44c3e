import { strategy } from '../../src/scheduler';
import { parseArgs } from './args';
import { LOAD_FLAGS, parseStrategies } from './strategy-options';

const parse = (...argv: string[]) => parseStrategies(parseArgs('load', argv, LOAD_FLAGS), ['browser', 'getlist']);

describe('--connections, --depth, --h2-connections, --no-speculative', () => {
  test('without flags each strategy is its preset', () => {
    expect(parse()).toEqual([strategy('browser'), strategy('getlist')]);
  });

  test('--connections sets every strategy\'s connections.maxPerOrigin', () => {
    expect(parse('--strategy', 'http10,getlist', '--connections', '3').map((s) => s.connections.maxPerOrigin)).toEqual([3, 3]);
  });

  test('--depth sets pipelining.maxDepth where the preset pipelines, and turns pipelining on nowhere', () => {
    const [browser, pipelined, getlist] = parse('--strategy', 'browser,pipelined,getlist', '--depth', '5');
    expect(browser?.pipelining).toBe(false);
    expect(pipelined?.pipelining).toMatchObject({ maxDepth: 5 });
    expect(getlist?.pipelining).toMatchObject({ maxDepth: 5, orderProbe: true });
  });

  test('--h2-connections sets http2.connectionsForDemand where the preset has HTTP/2, and turns it on nowhere; out of range is a usage error', () => {
    const [browser, h2, getlist] = parse('--strategy', 'browser,h2,getlist', '--h2-connections', '1');
    expect(browser?.http2).toBe(false);
    expect(h2?.http2).toMatchObject({ connectionsForDemand: 1 });
    expect(getlist?.http2).toMatchObject({ connectionsForDemand: 1, connectionsOnStall: 2 });
    expect(() => parse('--h2-connections', '0')).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
    expect(() => parse('--h2-connections', '17')).toThrow(expect.objectContaining({ code: 'E_USAGE' }));
  });

  test('--no-speculative turns off memory.speculativeList, and the memory policy on nowhere', () => {
    const [browser, getlist] = parse('--no-speculative');
    expect(browser?.memory).toBe(false);
    expect(getlist?.memory).toEqual({ speculativeList: false });
  });
});
