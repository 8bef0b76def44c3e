/**
 * What the origin servers saw during one run, read off the nginx access log: the entries logged
 * since the run began (`log.slice(before)`), their distinct `$connection` serials and requests.
 * One nginx worker numbers connections in one sequence, so a serial names one TCP connection.
 */
import type { AccessLogEntry } from '../origins/access-log';

export interface ServerView {
  requests: number;
  connectionsOpened: number;
  requestsPerConnection: number;
  /** Responses with a status other than 2xx. */
  non2xx: number;
  protocols: string[];
  /** Request paths, in log order. */
  paths: string[];
}

export function serverView(entries: readonly AccessLogEntry[]): ServerView {
  const connections = new Set(entries.map((e) => e.connection));
  const protocols = [...new Set(entries.map((e) => e.protocol))].sort();
  return {
    requests: entries.length,
    connectionsOpened: connections.size,
    requestsPerConnection: connections.size === 0 ? 0 : Math.round((entries.length / connections.size) * 1000) / 1000,
    non2xx: entries.filter((e) => e.status < 200 || e.status > 299).length,
    protocols,
    paths: entries.map((e) => e.path),
  };
}
