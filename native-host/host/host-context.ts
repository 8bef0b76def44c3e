import type { HostMessage } from '../../src/protocol';
import type { HandshakeStore } from '../store/store-types';
import type { TimingConnector } from '../transport/timing-connector';
import type { HostLog } from './host-log';
import type { RunTransportOptions } from '../run/run-session';
import type { WarmConnections } from './warm-connections';

/** What every message handler may use. One per host process. */
export interface HostContext {
  readonly hostVersion: string;
  /** This installation's CLI command line, reported in `hello` (see HelloReply.cliCommand). */
  readonly cliCommand?: string;
  /** Queues a message for the browser (chunked when large); never throws for a closed port. */
  send(message: HostMessage): void;
  readonly store: HandshakeStore | undefined;
  readonly log: HostLog;
  /** Aborted when the host shuts down: running schedules stop and send nothing more. */
  readonly signal: AbortSignal;
  /** Measure mode: one connector for the host's life (TLS sessions resume as a browser's would). */
  readonly connector: TimingConnector;
  readonly warm: WarmConnections;
  nextConnectionId(): number;
  /** Schedules running now (measure and replay alike). */
  running: number;
  /** What every replay runs with: the transport's settings, and each strategy's time limit. */
  readonly replay: { transport?: RunTransportOptions; timeoutMs: number };
  readonly now: () => number;
}
