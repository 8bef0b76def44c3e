import { buildHostManifest, parseHostManifest, serializeHostManifest } from '../../native-host/install/host-manifest';
import { IDS } from './support';

describe('host manifest', () => {
  test('Chrome/Chromium admit the extension origin with its trailing slash; Firefox the gecko id', () => {
    expect(buildHostManifest('chrome', '/d/getlist-host', IDS)).toEqual({
      name: 'dev.getlist.host',
      description: expect.any(String),
      path: '/d/getlist-host',
      type: 'stdio',
      allowed_origins: [`chrome-extension://${IDS.chromeId}/`],
    });
    expect(buildHostManifest('firefox', '/d/getlist-host', IDS)).toEqual({
      name: 'dev.getlist.host',
      description: expect.any(String),
      path: '/d/getlist-host',
      type: 'stdio',
      allowed_extensions: ['getlist@getlist.dev'],
    });
  });

  test('what is built parses back clean, for every browser', () => {
    for (const b of ['chrome', 'chromium', 'firefox'] as const) {
      const m = buildHostManifest(b, '/d/getlist-host', IDS);
      expect(parseHostManifest(serializeHostManifest(m), b, IDS, 'linux')).toEqual({ ok: true, manifest: m });
    }
  });

  test.each([
    ['{', 'json', /not valid JSON/],
    ['[]', 'json', /expected a JSON object, got an array/],
    ['{"name":"x","type":"stdio","path":"/p","allowed_origins":["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]}', 'name', /"name" is "x", expected "dev.getlist.host"/],
    ['{"name":"dev.getlist.host","type":"socket","path":"/p","allowed_origins":["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]}', 'type', /"type" is "socket", expected "stdio"/],
    ['{"name":"dev.getlist.host","type":"stdio","path":"getlist-host","allowed_origins":["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]}', 'path', /not absolute/],
    ['{"name":"dev.getlist.host","type":"stdio","path":"/p","allowed_origins":["chrome-extension://abcdefghijklmnopabcdefghijklmnop"]}', 'allowed', /does not name this extension, "chrome-extension:\/\/abcdefghijklmnopabcdefghijklmnop\/"/],
    ['{"name":"dev.getlist.host","type":"stdio","path":"/p"}', 'allowed', /"allowed_origins" is missing/],
  ])('chrome manifest %s → problem with %s', (text, field, message) => {
    const r = parseHostManifest(text, 'chrome', IDS, 'linux');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test('a Chrome manifest is not a Firefox one, and Windows paths are absolute only on Windows', () => {
    const chrome = serializeHostManifest(buildHostManifest('chrome', 'C:\\g\\getlist-host.bat', IDS));
    const r = parseHostManifest(chrome, 'firefox', IDS, 'win32');
    expect(r.ok ? [] : r.problems.map((p) => p.field)).toEqual(['allowed']);
    const onLinux = parseHostManifest(chrome, 'chrome', IDS, 'linux');
    expect(onLinux.ok ? [] : onLinux.problems.map((p) => p.field)).toEqual(['path']);
  });
});
