import { EARLY_RECORDER_FILE, EARLY_RECORDER_ID, syncEarlyRecorder, type RegisteredScript, type ScriptingLike } from '../../extension/background/early-recorder';
import { SITE_ORIGINS } from '../../src/page/model/site-rules';

/** `browser.scripting`'s registration calls over a list, with Chromium's refusal of a duplicate id. */
function scripting(initial: RegisteredScript[] = []): ScriptingLike & { scripts: RegisteredScript[]; calls: string[] } {
  const scripts = initial.map((s) => ({ ...s }));
  const calls: string[] = [];
  const pick = (ids?: string[]) => scripts.filter((s) => !ids || ids.includes(s.id));
  return {
    scripts,
    calls,
    getRegisteredContentScripts: async (filter) => pick(filter?.ids).map((s) => ({ ...s })),
    registerContentScripts: async (list) => {
      calls.push(`register ${list.map((s) => s.id).join(',')}`);
      for (const s of list) {
        if (scripts.some((x) => x.id === s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
        scripts.push({ ...s });
      }
    },
    unregisterContentScripts: async (filter) => {
      calls.push(`unregister ${(filter?.ids ?? ['*']).join(',')}`);
      for (const s of pick(filter?.ids)) scripts.splice(scripts.indexOf(s), 1);
    },
  };
}

const WANTED: RegisteredScript = { id: EARLY_RECORDER_ID, js: [EARLY_RECORDER_FILE], matches: [...SITE_ORIGINS], runAt: 'document_start', allFrames: false };
const OTHER: RegisteredScript = { id: 'someone-else', js: ['x.js'], matches: ['https://a.test/*'], runAt: 'document_idle' };

describe('the document_start recorder follows the capture mode', () => {
  test('lean capture registers nothing, and removes a recorder left from Detailed capture, only its own', async () => {
    const none = scripting([OTHER]);
    await expect(syncEarlyRecorder(none, 'lean', SITE_ORIGINS)).resolves.toBe('kept');
    expect(none.calls).toEqual([]);
    const left = scripting([OTHER, WANTED]);
    await expect(syncEarlyRecorder(left, 'lean', SITE_ORIGINS)).resolves.toBe('unregistered');
    expect(left.scripts).toEqual([OTHER]);
  });

  test('Detailed capture registers content-start.js at document_start for every http(s) page, top frame only, once', async () => {
    const s = scripting();
    await expect(syncEarlyRecorder(s, 'detailed', SITE_ORIGINS)).resolves.toBe('registered');
    expect(s.scripts).toEqual([WANTED]);
    // The next background start finds it in place: no second registration (which the browser would refuse).
    await expect(syncEarlyRecorder(s, 'detailed', SITE_ORIGINS)).resolves.toBe('kept');
    expect(s.calls).toEqual([`register ${EARLY_RECORDER_ID}`]);
  });

  test('a registration of another shape (an older version\'s) is replaced; the browser\'s defaults count as given', async () => {
    const old = scripting([{ id: EARLY_RECORDER_ID, js: ['old-start.js'], matches: ['http://*/*'], runAt: 'document_start' }]);
    await expect(syncEarlyRecorder(old, 'detailed', SITE_ORIGINS)).resolves.toBe('registered');
    expect(old.scripts).toEqual([WANTED]);
    expect(old.calls).toEqual([`unregister ${EARLY_RECORDER_ID}`, `register ${EARLY_RECORDER_ID}`]);
    // Firefox answers without `allFrames` when it is false, and in another order: the same script.
    const { allFrames: _omitted, ...asFirefoxSays } = WANTED;
    const same = scripting([{ ...asFirefoxSays, matches: [...SITE_ORIGINS].reverse() }]);
    await expect(syncEarlyRecorder(same, 'detailed', SITE_ORIGINS)).resolves.toBe('kept');
  });

  test('a browser error reaches the caller', async () => {
    const s = scripting();
    s.registerContentScripts = () => Promise.reject(new Error('Permission denied'));
    await expect(syncEarlyRecorder(s, 'detailed', SITE_ORIGINS)).rejects.toThrow('Permission denied');
  });
});
