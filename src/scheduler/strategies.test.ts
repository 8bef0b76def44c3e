import { STRATEGY_NAMES, strategy, type Strategy, type StrategyOverrides } from './index';

const refused = (name: string, overrides: unknown, message: RegExp) => {
  expect(() => strategy(name, overrides as StrategyOverrides)).toThrow(expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringMatching(message) }));
};

describe('strategies as policies', () => {
  test('the presets, policy by policy', () => {
    const on = (s: Strategy) => (['pipelining', 'http2', 'pausing', 'memory'] as const).filter((p) => s[p] !== false);
    expect(Object.fromEntries(STRATEGY_NAMES.map((n) => [n, on(strategy(n))]))).toEqual({
      http10: [], serial: [], browser: [], pipelined: ['pipelining'], getlist: ['pipelining', 'http2', 'pausing', 'memory'], h2: ['http2'],
    });
    expect(strategy('http10').connections).toEqual({ maxPerOrigin: 1, keepAlive: false, fitToPath: false, preconnect: false });
    expect(strategy('pipelined').pipelining).toMatchObject({ maxDepth: 64, orderProbe: false });
    expect(strategy('getlist')).toMatchObject({
      connections: { maxPerOrigin: 6, keepAlive: true, fitToPath: true, preconnect: true },
      pipelining: { maxDepth: 16, largeResponseBytes: 131_072, demoteMs: 600_000, probeSuccesses: 1, orderProbe: true },
      http2: { maxStreams: 256, connectionsOnStall: 2, connectionsForDemand: 6, connectionsForPreconnect: 3, demandMinHandshakeMs: 30 },
      ordering: 'priorities',
      pausing: { maxFlowing: 2, minBytes: 16_384, onlyWhenLinkBusy: true },
      memory: { speculativeList: { maxBytes: 2_097_152 } },
      discovery: { earlyImports: true },
    });
    expect(strategy('h2')).toMatchObject({ http2: { connectionsOnStall: 1, connectionsForDemand: 1 }, ordering: 'priorities', discovery: { earlyImports: false } });
  });

  test('an override changes only what it names, deep; an object turns an off policy on from its defaults; false turns one off', () => {
    const s = strategy('getlist', { pipelining: { maxDepth: 4 }, memory: { speculativeList: false } });
    expect(s.pipelining).toEqual({ ...(strategy('getlist').pipelining as object), maxDepth: 4 });
    expect(s.memory).toEqual({ speculativeList: false });
    expect(strategy('browser', { pipelining: {} }).pipelining).toEqual({ maxDepth: 16, largeResponseBytes: 131_072, demoteMs: 600_000, probeSuccesses: 1, orderProbe: false });
    expect(strategy('browser', { memory: { speculativeList: {} } }).memory).toEqual({ speculativeList: { maxBytes: 2_097_152 } });
    expect(strategy('getlist', { http2: false, pausing: false }).http2).toBe(false);
    expect(strategy('browser', { connections: { maxPerOrigin: undefined } }).connections.maxPerOrigin).toBe(6);
  });

  test('each call is a fresh copy: changing one changes no preset', () => {
    const a = strategy('getlist');
    a.connections.maxPerOrigin = 1;
    (a.pipelining as { maxDepth: number }).maxDepth = 1;
    expect(strategy('getlist').connections.maxPerOrigin).toBe(6);
    expect(strategy('getlist').pipelining).toMatchObject({ maxDepth: 16 });
    expect(strategy('browser').connections.maxPerOrigin).toBe(6);
  });

  test('a setting out of range is refused naming its path, what was expected and what arrived', () => {
    refused('getlist', { pipelining: { maxDepth: 0 } }, /^strategy getlist: pipelining\.maxDepth must be an integer ≥ 1, got 0$/);
    refused('browser', { connections: { maxPerOrigin: 1.5 } }, /connections\.maxPerOrigin must be an integer ≥ 1, got 1\.5/);
    refused('getlist', { http2: { connectionsForDemand: 0 } }, /http2\.connectionsForDemand must be an integer ≥ 1/);
    refused('getlist', { http2: { connectionsForPreconnect: 0 } }, /http2\.connectionsForPreconnect must be an integer ≥ 1/);
    refused('getlist', { pausing: { maxFlowing: -1 } }, /pausing\.maxFlowing must be an integer ≥ 0/);
    refused('getlist', { memory: { speculativeList: { maxBytes: -1 } } }, /memory\.speculativeList\.maxBytes must be an integer ≥ 0/);
    refused('getlist', { ordering: 'random' }, /ordering must be "priorities" or "fifo", got "random"/);
  });

  test('a setting that does not exist, or of the wrong kind, is refused naming its path', () => {
    refused('getlist', { pipelining: { depth: 4 } }, /^strategy getlist: pipelining\.depth is not a setting; expected one of pipelining\.maxDepth, /);
    refused('getlist', { maxPipelineDepth: 4 }, /maxPipelineDepth is not a setting; expected one of connections, pipelining, /);
    refused('getlist', { name: 'h2' }, /name is not a setting/);
    refused('browser', { pipelining: true }, /pipelining must be an object \(its settings\) or false \(off\), got true/);
    refused('browser', { connections: false }, /connections must be an object \(its settings\), got false/);
    refused('browser', { connections: { keepAlive: 'yes' } }, /connections\.keepAlive must be a boolean, got "yes"/);
    refused('browser', { ordering: { priorities: true } }, /ordering must be a string, got an object/);
  });

  test('an unknown strategy name is E_UNKNOWN_STRATEGY', () => {
    expect(() => strategy('fastest')).toThrow(expect.objectContaining({ code: 'E_UNKNOWN_STRATEGY', message: expect.stringContaining('expected one of http10, serial, browser, pipelined, getlist, h2') }));
  });
});
