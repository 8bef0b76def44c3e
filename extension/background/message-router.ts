import { isCodedError } from '../../src/core/coded-error';
import type { ContentMessage, SpeculationMessage, SpeculationReply, UiRequest, UiResponse } from '../../src/page/messages/messages';
import { discoveriesReported, timingsReported } from '../../src/page/model/page-reducer';
import { parseContentMessage } from '../../src/page/messages/parse-content-message';
import { parseUiRequest } from '../../src/page/messages/parse-ui-request';
import { isContextGoneError } from '../platform/context-errors';
import type { PageStore } from './page-store';
import type { UiHandlers } from './ui-handlers';
import type { SpeculationService } from './speculation-service';

/** The parts of `runtime.MessageSender` the trust checks read. */
export interface SenderLike {
  id?: string;
  url?: string;
  tab?: { id?: number };
  frameId?: number;
}

export interface RouterDeps {
  extensionId: string;
  /** `runtime.getURL('')`: the origin of the extension's own pages. */
  extensionBaseUrl: string;
  store: PageStore;
  handlers: UiHandlers;
  /** The speculation script's reports (speculation-service.ts). */
  speculation?: SpeculationHooks;
  warn?: (message: string) => void;
}

export type SpeculationHooks = Pick<SpeculationService, 'pageReady' | 'pageKept' | 'readsCache' | 'linksReported' | 'speculated'>;

type ErrorResponse = Extract<UiResponse, { type: 'error' }>;

/**
 * Routes runtime messages by channel and trust (uBlock): `content` messages only from this
 * extension's content scripts in a tab's top frame; `ui` requests only from this extension's own
 * pages (popup, options — an options page open in a tab has `sender.tab` too, so the page URL is
 * what tells them from content scripts). A message anyone else sends gets `E_FORBIDDEN`.
 * Every UI request gets exactly one response; failures become `{type: 'error', code, message}`.
 */
export function createMessageRouter(deps: RouterDeps): (message: unknown, sender: SenderLike) => Promise<UiResponse | SpeculationReply | undefined> {
  const warn = deps.warn ?? ((m: string) => console.warn(`getlist: ${m}`));
  const fromExtensionPage = (s: SenderLike) => s.id === deps.extensionId && typeof s.url === 'string' && s.url.startsWith(deps.extensionBaseUrl);
  const fromContentScript = (s: SenderLike) => s.id === deps.extensionId && s.tab?.id !== undefined && !fromExtensionPage(s) && (s.frameId ?? 0) === 0;

  return async (message, sender) => {
    const channel = typeof message === 'object' && message !== null ? (message as { channel?: unknown }).channel : undefined;
    try {
      if (channel === 'content') {
        if (!fromContentScript(sender)) return forbidden('content reports are accepted only from getlist content scripts');
        const content = parseContentMessage(message);
        const tabId = sender.tab?.id as number;
        if (isSpeculation(content)) return deps.speculation ? await applySpeculation(deps.speculation, content, tabId, sender.url) : undefined;
        await applyContent(deps.store, content, tabId, sender.url);
        return undefined;
      }
      if (channel === 'ui') {
        if (!fromExtensionPage(sender)) return forbidden('UI requests are accepted only from getlist pages');
        return await dispatch(deps.handlers, parseUiRequest(message));
      }
      return { type: 'error', code: 'E_UNKNOWN_CHANNEL', message: `channel: expected "content" or "ui", got ${JSON.stringify(channel)}` };
    } catch (err) {
      return toErrorResponse(err, warn);
    }
  };
}

function isSpeculation(m: ContentMessage): m is SpeculationMessage {
  return m.type === 'speculation-ready' || m.type === 'speculation-links' || m.type === 'speculated' || m.type === 'speculation-kept';
}

async function applySpeculation(hooks: SpeculationHooks, m: SpeculationMessage, tabId: number, url: string | undefined): Promise<SpeculationReply | undefined> {
  if (m.type === 'speculation-ready') {
    const context = await hooks.pageReady(tabId, url, m.served, { saveData: m.saveData, ownRules: m.ownRules, ...(m.rulesSupported === undefined ? {} : { rulesSupported: m.rulesSupported }) });
    return { type: 'speculation-context', context, ...(hooks.readsCache ? { readCache: true } : {}) };
  }
  if (m.type === 'speculation-kept') await hooks.pageKept(tabId, url, m.kept);
  else if (m.type === 'speculation-links') hooks.linksReported(tabId, url, { candidates: m.candidates, refused: m.refused });
  else hooks.speculated(tabId, url, m.url);
  return undefined;
}

async function applyContent(store: PageStore, message: Exclude<ContentMessage, SpeculationMessage>, tabId: number, url: string | undefined): Promise<void> {
  if (message.type === 'discoveries') await store.update((s) => discoveriesReported(s, tabId, url, message.items, message.loadedAt, message.styleScanned), 'dirty');
  else await store.update((s) => timingsReported(s, tabId, url, message.entries, message.navigation, message.bufferFull, message.loadedAt, message.documentCookies));
}

function dispatch<T extends UiRequest['type']>(handlers: UiHandlers, request: Extract<UiRequest, { type: T }>): Promise<UiResponse> {
  const handler = handlers[request.type as T] as (r: typeof request) => Promise<UiResponse>;
  return handler(request);
}

function forbidden(why: string): ErrorResponse {
  return { type: 'error', code: 'E_FORBIDDEN', message: why };
}

/** The one place errors become responses: coded errors keep their code; context loss and bugs are named as such. */
export function toErrorResponse(err: unknown, warn: (message: string) => void): ErrorResponse {
  const message = err instanceof Error ? err.message : String(err);
  if (isContextGoneError(err)) return { type: 'error', code: 'E_CONTEXT_GONE', message: `The extension was reloaded or a page closed: ${message}` };
  const code = isCodedError(err) ? err.code : 'E_INTERNAL';
  if (code === 'E_INTERNAL') warn(`bug while handling a message: ${err instanceof Error ? (err.stack ?? message) : message}`);
  return { type: 'error', code, message };
}
