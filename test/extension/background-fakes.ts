// Fakes for the background modules: storage areas, the native host port, hand-fired timers, and a
// page loaded through the reducer the way webNavigation and webRequest would report it.
import { HostRequestError, type HostPort, type HostRequestBody, type RequestOptions } from '../../extension/background/native-port';
import { PageStore } from '../../extension/background/page-store';
import { SettingsStore } from '../../extension/background/settings-store';
import type { HostStatus, Settings } from '../../src/page/messages/messages';
import * as reducer from '../../src/page/model/page-reducer';
import { replyRole, settlingReplyType, type HostMessage, type ProgressOf, type ReplyOf } from '../../src/protocol';
import { LEARNED_WRITE_DELAY_MS } from '../../extension/background/learned-store';

/** `storage.session` / `storage.local` in memory; `failSets` makes the next N `set`s reject. */
/** What `storage.*.get(keys)` answers from `items`: one key, several, or every item (`null`), copied. */
export function storedItems(items: Record<string, unknown>, keys: string | string[] | null): Record<string, unknown> {
  const wanted = keys === null ? Object.keys(items) : typeof keys === 'string' ? [keys] : keys;
  return Object.fromEntries(wanted.filter((k) => k in items).map((k) => [k, structuredClone(items[k])]));
}

export class MemoryStorage {
  readonly items: Record<string, unknown>;
  sets = 0;
  failSets = 0;
  /** What a failed `set` says: the area full, as Chromium words it, unless a test says otherwise. */
  failMessage = 'QUOTA_BYTES quota exceeded';
  constructor(initial: Record<string, unknown> = {}) {
    this.items = structuredClone(initial);
  }
  removes = 0;
  /** What each `get` asked for, in order. */
  readonly gets: Array<string | string[] | null> = [];
  /** One key, several, or every item (`null`), as `storage.*.get` takes them. */
  get = async (keys: string | string[] | null): Promise<Record<string, unknown>> => {
    this.gets.push(keys);
    return storedItems(this.items, keys);
  };
  getKeys = async (): Promise<string[]> => Object.keys(this.items);
  remove = async (keys: string | string[]): Promise<void> => {
    this.removes++;
    for (const k of typeof keys === 'string' ? [keys] : keys) delete this.items[k];
  };
  /** What the last `set` was given. */
  lastSet: Record<string, unknown> | undefined;
  set = async (items: Record<string, unknown>): Promise<void> => {
    this.sets++;
    this.lastSet = items;
    if (this.failSets > 0) {
      this.failSets--;
      throw new Error(this.failMessage);
    }
    Object.assign(this.items, structuredClone(items));
  };
}

/** Timers the test fires by hand. */
export class FakeTimers {
  readonly due: Array<{ fn: () => void; ms: number }> = [];
  setTimeout = (fn: () => void, ms: number): unknown => this.due.push({ fn, ms });
  /** Fires (and removes) every timer of `ms`, or every timer. */
  fire(ms?: number): void {
    for (const t of this.due.filter((d) => ms === undefined || d.ms === ms)) {
      this.due.splice(this.due.indexOf(t), 1);
      t.fn();
    }
  }
}

interface SentRequest {
  body: HostRequestBody;
  options: RequestOptions;
  /**
   * Delivers a reply the way NativePort does (same `replyRole`): the settling one resolves, a
   * replay's `replay-result`s go to onProgress, any other type rejects with `E_UNEXPECTED_REPLY`.
   */
  reply(message: Record<string, unknown>): void;
  fail(error: HostRequestError): void;
}

/** The native host port as page actions and UI handlers see it; requests wait until the test answers. */
export class FakeHost implements HostPort {
  status: HostStatus = { state: 'ok', hostVersion: '0.1.0' };
  readonly sent: SentRequest[] = [];
  checkStatus = async (): Promise<HostStatus> => this.status;
  request<R extends HostRequestBody>(body: R, options: RequestOptions<ProgressOf<R>> = {}): Promise<ReplyOf<R>> {
    return new Promise((resolve, reject) => {
      const id = this.sent.length + 1;
      this.sent.push({
        body,
        options: options as RequestOptions,
        reply: (m) => {
          const message = { ...m, id } as unknown as HostMessage;
          const role = replyRole(body, message);
          if (role === 'progress') options.onProgress?.(message as ProgressOf<R>);
          else if (role === 'last') resolve(message as ReplyOf<R>);
          else reject(new HostRequestError('E_UNEXPECTED_REPLY', `the native host answered ${body.type} with ${message.type}; expected ${settlingReplyType(body)}`));
        },
        fail: reject,
      });
    });
  }
  last(): SentRequest {
    const r = this.sent[this.sent.length - 1];
    if (!r) throw new Error('nothing was sent to the host');
    return r;
  }
}

export function settingsStore(settings: Partial<Settings> = {}): SettingsStore {
  return new SettingsStore(new MemoryStorage({ 'getlist.settings.v1': settings }));
}

/** A page store that writes at once to `storage`. */
export function pageStore(storage = new MemoryStorage()): PageStore {
  return new PageStore(storage, { setTimeout: (fn) => fn(), warn: () => undefined });
}

/** Loads `url` in `tabId`: the navigation, its document and one image, committed and loaded. */
export async function loadPage(store: PageStore, tabId: number, url: string, t = 1000): Promise<void> {
  await store.update((s) => {
    reducer.navigationStarted(s, { tabId, frameId: 0, url, timeStamp: t });
    reducer.requestStarted(s, { tabId, frameId: 0, requestId: `doc-${t}`, url, method: 'GET', type: 'main_frame', timeStamp: t + 1 });
    reducer.navigationCommitted(s, { tabId, frameId: 0, url, timeStamp: t + 20 });
    reducer.requestStarted(s, { tabId, frameId: 0, requestId: `img-${t}`, url: new URL('/i.png', url).href, method: 'GET', type: 'image', timeStamp: t + 30 });
    return reducer.navigationCompleted(s, { tabId, frameId: 0, url, timeStamp: t + 100 });
  });
}

export function measuredReply(pageId: string): Record<string, unknown> {
  return { type: 'measured', pageId, handshakes: [], warm: [], failed: [] };
}

/** Fires the timers of `ms` (a gathered write's delay, gathered-write.ts) and lets what they started finish. */
export async function firedAndSettled(timers: FakeTimers, ms: number): Promise<void> {
  timers.fire(ms);
  await new Promise((r) => setTimeout(r, 0));
}

/** Fires the learned store's gathered write (learned-store.ts) on `timers` and lets it finish. */
export function learnedWritten(timers: FakeTimers): Promise<void> {
  return firedAndSettled(timers, LEARNED_WRITE_DELAY_MS);
}
