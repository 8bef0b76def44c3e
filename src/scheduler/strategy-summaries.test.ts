import { STRATEGY_NAMES, strategy } from './strategies';
import { describeStrategies, STRATEGY_SUMMARIES, strategyTraits } from './strategy-summaries';

describe('strategy summaries', () => {
  test('every preset has a summary, and the list follows STRATEGY_NAMES', () => {
    expect(describeStrategies().map((d) => d.name)).toEqual([...STRATEGY_NAMES]);
    for (const name of STRATEGY_NAMES) expect(STRATEGY_SUMMARIES[name].length).toBeGreaterThan(20);
  });

  test.each(STRATEGY_NAMES)('the traits of %s are read off its preset', (name) => {
    const s = strategy(name);
    const traits = strategyTraits(s);
    expect(traits).toMatch(new RegExp(`^${s.connections.maxPerOrigin} HTTP/1\\.1 connections?/origin`));
    expect(traits.includes('no keep-alive')).toBe(!s.connections.keepAlive);
    expect(/pipelined to depth (\d+)/.exec(traits)?.[1]).toBe(s.pipelining ? String(s.pipelining.maxDepth) : undefined);
    expect(traits.includes('priority classes')).toBe(s.ordering === 'priorities');
    expect(traits.includes('FIFO')).toBe(s.ordering !== 'priorities');
    expect(traits.includes('pauses bulk bodies')).toBe(s.pausing !== false);
    expect(traits.includes('HTTP/2')).toBe(s.http2 !== false);
    expect(traits.includes("learned list")).toBe(s.memory !== false && s.memory.speculativeList !== false);
    expect(traits.includes('sized to the path')).toBe(s.connections.fitToPath);
  });

  test('an override shows in the traits', () => {
    expect(strategyTraits(strategy('pipelined', { connections: { maxPerOrigin: 2 }, pipelining: { maxDepth: 3 } }))).toMatch(/^2 HTTP\/1\.1 connections\/origin, pipelined to depth 3 /);
  });
});
