import type { UiRequest, UiResponse } from '../../src/page/messages/messages';
import { browser } from '../platform/browser-api';

type Body<R> = R extends unknown ? Omit<R, 'channel'> : never;
export type UiRequestBody = Body<UiRequest>;
export type UiError = Extract<UiResponse, { type: 'error' }>;
export type ReplyTo<T extends UiRequest['type']> = Extract<UiResponse, { type: T }>;

/**
 * Sends a UI request to the background. Never throws: a missing background, a reply of another
 * type or a transport error all come back as `{ type: 'error' }`, so the pages can show them.
 */
export async function ask<R extends UiRequestBody>(request: R): Promise<ReplyTo<R['type']> | UiError> {
  try {
    const reply = (await browser.runtime.sendMessage({ channel: 'ui', ...request })) as UiResponse | undefined;
    if (reply && (reply.type === request.type || reply.type === 'error')) return reply as ReplyTo<R['type']> | UiError;
    return { type: 'error', code: 'E_BAD_REPLY', message: `the background answered ${reply ? `"${reply.type}"` : 'nothing'} to "${request.type}"` };
  } catch (e) {
    return { type: 'error', code: 'E_NO_BACKGROUND', message: e instanceof Error ? e.message : String(e) };
  }
}
