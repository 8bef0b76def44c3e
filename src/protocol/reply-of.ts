import type { DiscoveredReply, ExportReply, ForgottenReply, HelloReply, HostMessage, MeasuredReply, PongReply, RecordedReply, ReplayResultMessage, ReplaySummaryMessage, StatsReply } from './replies';
import type { HostRequestType, ScheduleMode } from './requests';

/**
 * Which reply answers which request, as a type (for callers) and as a table (checked at run time
 * by the extension's port, after `parseHostMessage` has checked the reply's fields).
 *
 * Every request is settled by exactly one reply of its own type, or by an `error`. The one
 * exception is a `schedule` in `replay` mode: a `replay-result` per strategy as each run ends,
 * then the `replay-summary` that settles it.
 */

/** What decides a request's replies: its type, and for `schedule` its mode. */
export interface ReplyKey {
  type: HostRequestType;
  mode?: ScheduleMode | undefined;
}

interface FinalReplies {
  hello: HelloReply;
  ping: PongReply;
  discover: DiscoveredReply;
  handshakes: RecordedReply;
  stats: StatsReply;
  export: ExportReply;
  forget: ForgottenReply;
}

/** The reply that settles request `R` (`schedule`: `measured`, or a replay's `replay-summary`). */
export type ReplyOf<R extends ReplyKey> = R extends { type: 'schedule' }
  ? R['mode'] extends 'replay'
    ? ReplaySummaryMessage
    : R['mode'] extends 'measure' | undefined
      ? MeasuredReply
      : MeasuredReply | ReplaySummaryMessage
  : FinalReplies[Exclude<R['type'], 'schedule'>];

/** The messages that may arrive for `R` before the one that settles it (a replay's `replay-result`s). */
export type ProgressOf<R extends ReplyKey> = R extends { type: 'schedule' } ? (R['mode'] extends 'measure' | undefined ? never : ReplayResultMessage) : never;

/** The settling reply's type per request type; the compiler keeps it in step with {@link ReplyOf}. */
const FINAL_TYPE: { [T in keyof FinalReplies]: FinalReplies[T]['type'] } = {
  hello: 'hello',
  ping: 'pong',
  discover: 'discovered',
  handshakes: 'recorded',
  stats: 'stats',
  export: 'export',
  forget: 'forgotten',
};

/**
 * What a validated host message is to `request`: the reply that settles it, one that comes before
 * (a replay's `replay-result`), or `unexpected` — a message of another type, which the caller
 * turns into an `E_UNEXPECTED_REPLY` failure rather than hand on.
 */
export function replyRole(request: ReplyKey, message: HostMessage): 'last' | 'progress' | 'unexpected' {
  if (request.type === 'schedule') {
    if (request.mode !== 'replay') return message.type === 'measured' ? 'last' : 'unexpected';
    if (message.type === 'replay-summary') return 'last';
    return message.type === 'replay-result' ? 'progress' : 'unexpected';
  }
  return message.type === FINAL_TYPE[request.type] ? 'last' : 'unexpected';
}

/** The message type that settles `request`, for error messages. */
export function settlingReplyType(request: ReplyKey): HostMessage['type'] {
  if (request.type === 'schedule') return request.mode === 'replay' ? 'replay-summary' : 'measured';
  return FINAL_TYPE[request.type];
}
