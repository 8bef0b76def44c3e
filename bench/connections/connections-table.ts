/**
 * The connections bench's verdicts and its section of bench/RESULTS.md: per browser, protocol and
 * page, how many loads ran, how many disagreed with the servers' log, and the spread of the
 * servers' count beside the popup's figures.
 */

export interface ConnectionLoad {
  browser: string;
  protocol: string;
  page: string;
  load: number;
  capture: string;
  nextHopProtocol: string;
  /** The site's own log: connections that carried the browser's requests, its requests, every connection accepted (the host's measure included). */
  server: { connections: number; requests: number; accepted: number };
  /** The popup's `data-*` figures; `usedAtLeast` null where it says "not exposed". */
  popup: { opened: number; usedAtLeast: number | null; connectionsMin: number; connections: number; requests: number; bound: string; text: string };
  /** Distinct `connection` ids in the HAR built from the record. */
  harConnections: number;
  /** The browser shows a connect phase for every connection it opens (Firefox). */
  everyConnect: boolean;
}

export interface ConnectionsResults {
  bench: 'connections';
  at: string;
  loads: ConnectionLoad[];
}

/** Why a load disagrees with the servers' log; empty when it agrees. */
export function disagreements(l: ConnectionLoad): string[] {
  const out: string[] = [];
  const s = l.server;
  if (l.popup.requests !== s.requests) out.push(`requests ${l.popup.requests} ≠ servers' ${s.requests}`);
  if (l.popup.usedAtLeast !== null && l.popup.usedAtLeast > s.connections) out.push(`bound ≥ ${l.popup.usedAtLeast} > servers' ${s.connections}`);
  if (l.popup.connectionsMin > s.connections) out.push(`range low ${l.popup.connectionsMin} > servers' ${s.connections}`);
  if (l.harConnections > s.connections) out.push(`HAR names ${l.harConnections} > servers' ${s.connections}`);
  if (l.everyConnect ? l.popup.opened !== s.connections : l.popup.opened > s.connections) out.push(`opened ${l.popup.opened} ${l.everyConnect ? '≠' : '>'} servers' ${s.connections}`);
  if (l.capture !== 'lean') out.push(`capture ${l.capture}, not lean`);
  if (l.nextHopProtocol !== l.protocol) out.push(`document over ${l.nextHopProtocol || 'unknown'}, not ${l.protocol}`);
  return out;
}

export const CONNECTIONS_HEADING = "Connections against the servers' log";

function spread(values: readonly number[]): string {
  if (values.length === 0) return '—';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

export function connectionsSection(r: ConnectionsResults): { heading: string; body: string } {
  const cells = new Map<string, ConnectionLoad[]>();
  for (const l of r.loads) {
    const key = `${l.browser}\t${l.protocol}\t${l.page}`;
    cells.set(key, [...(cells.get(key) ?? []), l]);
  }
  const rows = [...cells.entries()].map(([key, loads]) => {
    const [browser, protocol, page] = key.split('\t') as [string, string, string];
    const bad = loads.filter((l) => disagreements(l).length > 0).length;
    const bounds = loads.map((l) => l.popup.usedAtLeast).filter((b): b is number => b !== null);
    return `| ${browser} | ${protocol} | ${page} | ${loads.length} | ${spread(loads.map((l) => l.server.connections))} | ${spread(loads.map((l) => l.server.accepted))} | ${spread(loads.map((l) => l.popup.opened))} | ${spread(bounds)} | ${spread(loads.map((l) => l.popup.connectionsMin))}–${spread(loads.map((l) => l.popup.connections))} | ${bad} |`;
  });
  const body = [
    '`node dist/bench/connections.js` (bench/connections/): real Chromium and Firefox ESR with the built extension in lean capture,',
    'each load on a site of its own; the popup\'s figures beside the site servers\' own log. A load disagrees when the popup\'s',
    'lower bound or the low end of its range exceeds the connections the servers saw carry the page\'s requests, when its',
    'request count differs, when the HAR names more connections, or when "opened" differs from the servers\' count in a',
    'browser that shows every connect (Firefox; Chromium may only fall short: it hands requests the sockets it preconnected',
    'at navigation start without a connect phase). "accepted" counts every connection the servers accepted, the host\'s',
    `measure included. Run ${r.at}.`,
    '',
    '| browser | protocol | page | loads | servers: carried | servers: accepted | popup: opened | popup: ≥ used | popup: range | disagree |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  return { heading: CONNECTIONS_HEADING, body };
}
