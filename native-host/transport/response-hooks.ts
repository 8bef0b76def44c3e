import type { Dispatch } from '../../src/scheduler';

/**
 * What a caller of the transport may watch of each response, besides the scheduler: a page load
 * streams the document into the HTML scanner and stylesheets into the CSS scanner through these.
 */
export interface ResponseHooks {
  /**
   * Called once a request has been handed to its connection to be written, with the round trip
   * that connection's TCP handshake measured (undefined where it was not measured).
   */
  onSent?: (dispatch: Dispatch, rttMs: number | undefined) => void;
  /** Called with a final response's status and headers, before the scheduler hears of it. */
  onResponseHead?: (dispatch: Dispatch, status: number, headers: Record<string, string | string[] | undefined>) => void;
  /** Called with every response body chunk (e.g. to stream a document into the scanner). */
  onBody?: (dispatch: Dispatch, chunk: Buffer) => void;
  /**
   * Called when a body is complete, before the scheduler settles the request (so discoveries made
   * from the body are enqueued before the load can look idle). When it returns a promise (a
   * decoder still flushing), the request settles once that promise does.
   */
  onBodyEnd?: (dispatch: Dispatch) => void | Promise<void>;
}
