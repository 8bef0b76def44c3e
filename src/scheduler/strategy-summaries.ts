import { STRATEGY_NAMES, strategy, type Strategy, type StrategyName } from './strategies';

/**
 * What each preset is for, in a sentence, for help and settings screens. The Record type makes a
 * new strategy without a summary a type error.
 */
export const STRATEGY_SUMMARIES: Readonly<Record<StrategyName, string>> = {
  http10: "Padmanabhan & Mogul's baseline: a new connection for every request, one at a time.",
  serial: 'One persistent connection per origin, stop-and-wait: the next request goes when the last response ends.',
  browser: "Today's HTTP/1.1 browsers: six persistent connections per origin, no pipelining, FIFO.",
  pipelined: "P&M's GETLIST: one persistent connection per origin with the whole list pipelined on it, FIFO.",
  getlist: 'Everything: pipelining over parallel persistent connections, priorities, pausing bulk bodies for urgent ones, HTTP/2 where offered.',
  h2: 'One multiplexed HTTP/2 connection per origin that offers it (ALPN); browser-style HTTP/1.1 elsewhere.',
};

/**
 * The settings that tell a preset apart, in words, read off the strategy itself so they cannot
 * disagree with it: e.g. `6 HTTP/1.1 connections/origin, pipelined to depth 16, …, priority classes`.
 */
export function strategyTraits(s: Strategy): string {
  const { maxPerOrigin: n, keepAlive, fitToPath } = s.connections;
  const list = s.memory ? s.memory.speculativeList : false;
  const traits = [
    `${n} HTTP/1.1 connection${n === 1 ? '' : 's'}/origin`,
    keepAlive ? undefined : 'no keep-alive (one request per connection)',
    s.pipelining ? `pipelined to depth ${s.pipelining.maxDepth} once the origin proves it pipelines` : undefined,
    s.ordering === 'priorities' ? 'priority classes' : 'FIFO',
    s.pausing ? 'pauses bulk bodies while an urgent request is outstanding' : undefined,
    s.http2 ? `HTTP/2 where ALPN offers it (one connection, up to ${s.http2.maxStreams} streams)` : undefined,
    fitToPath ? 'connections sized to the path' : undefined,
    list ? `on a revisit asks at once for the page's learned list (up to ${Math.round(list.maxBytes / 1024)} KiB; off: --no-speculative)` : undefined,
  ];
  return traits.filter((t): t is string => t !== undefined).join(', ');
}

/** Every preset as [name, summary, traits], in STRATEGY_NAMES order. */
export function describeStrategies(): Array<{ name: StrategyName; summary: string; traits: string }> {
  return STRATEGY_NAMES.map((name) => ({ name, summary: STRATEGY_SUMMARIES[name], traits: strategyTraits(strategy(name)) }));
}
