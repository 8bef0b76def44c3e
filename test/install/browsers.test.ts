import fs from 'node:fs';
import path from 'node:path';
import { doctor } from '../../native-host/install/doctor';
import { detectBrowsers } from '../../native-host/install/browsers';
import { install } from '../../native-host/install/install';
import { fakeHostCommand, IDS, tempSystem, writeExecutable } from './support';

describe('browser detection', () => {
  test('finds executables on PATH by their names, ignoring non-executables and relative PATH entries', () => {
    const sys = tempSystem();
    writeExecutable(path.join(sys.bin, 'google-chrome-stable'));
    writeExecutable(path.join(sys.bin, 'firefox-esr'));
    fs.writeFileSync(path.join(sys.bin, 'chromium'), '', { mode: 0o644 });
    sys.env = { ...sys.env, PATH: `relative/bin:${sys.bin}` };
    expect(detectBrowsers(sys)).toEqual([
      { browser: 'chrome', where: path.join(sys.bin, 'google-chrome-stable') },
      { browser: 'firefox', where: path.join(sys.bin, 'firefox-esr') },
    ]);
  });

  test('a PATH entry that is a wrapper script running a snap, or a link to snapd, is a snap', () => {
    const sys = tempSystem();
    writeExecutable(path.join(sys.bin, 'chromium-browser'), '#!/bin/sh\n# transitional package\nexec /snap/bin/chromium "$@"\n');
    writeExecutable(path.join(sys.systemRoot, 'usr', 'bin', 'snap'), '\x7fELF');
    fs.symlinkSync(path.join(sys.systemRoot, 'usr', 'bin', 'snap'), path.join(sys.bin, 'firefox'));
    expect(detectBrowsers(sys)).toEqual([
      { browser: 'chromium', where: path.join(sys.bin, 'chromium-browser'), sandbox: 'snap' },
      { browser: 'firefox', where: path.join(sys.bin, 'firefox'), sandbox: 'snap' },
    ]);
  });

  test('snaps under /snap/bin and ~/snap, flatpaks under ~/.var/app and /var/lib/flatpak', () => {
    const sys = tempSystem();
    writeExecutable(path.join(sys.systemRoot, 'snap', 'bin', 'chromium'));
    fs.mkdirSync(path.join(sys.home, 'snap', 'firefox'), { recursive: true });
    fs.mkdirSync(path.join(sys.home, '.var', 'app', 'org.mozilla.firefox'), { recursive: true });
    fs.mkdirSync(path.join(sys.systemRoot, 'var', 'lib', 'flatpak', 'app', 'com.google.Chrome'), { recursive: true });
    expect(detectBrowsers(sys)).toEqual([
      { browser: 'chrome', where: path.join(sys.systemRoot, 'var', 'lib', 'flatpak', 'app', 'com.google.Chrome'), sandbox: 'flatpak' },
      { browser: 'chromium', where: path.join(sys.systemRoot, 'snap', 'bin', 'chromium'), sandbox: 'snap' },
      { browser: 'firefox', where: path.join(sys.home, 'snap', 'firefox'), sandbox: 'snap' },
      { browser: 'firefox', where: path.join(sys.home, '.var', 'app', 'org.mozilla.firefox'), sandbox: 'flatpak' },
    ]);
  });

  test('macOS: app bundles in /Applications and ~/Applications', () => {
    const sys = tempSystem({ platform: 'darwin' });
    fs.mkdirSync(path.join(sys.systemRoot, 'Applications', 'Google Chrome.app'), { recursive: true });
    fs.mkdirSync(path.join(sys.home, 'Applications', 'Firefox Developer Edition.app'), { recursive: true });
    writeExecutable(path.join(sys.bin, 'chromium'));
    expect(detectBrowsers(sys)).toEqual([
      { browser: 'chrome', where: path.join(sys.systemRoot, 'Applications', 'Google Chrome.app') },
      { browser: 'firefox', where: path.join(sys.home, 'Applications', 'Firefox Developer Edition.app') },
    ]);
  });

  test('an empty machine has no browsers', () => {
    expect(detectBrowsers(tempSystem())).toEqual([]);
  });
});

describe('doctor on sandboxed browsers', () => {
  test('Chromium snap: FAIL, it cannot start hosts at all; use a non-snap browser', async () => {
    const sys = tempSystem();
    const r = await doctor({ browsers: ['chromium'], ids: IDS, detected: [{ browser: 'chromium', where: '/snap/bin/chromium', sandbox: 'snap' }] }, sys);
    expect(r.ok).toBe(false);
    expect(r.checks[0]).toEqual({
      browser: 'chromium',
      check: 'sandbox',
      status: 'fail',
      detail: 'Chromium at /snap/bin/chromium is a snap: snap-confined Chromium cannot start native messaging hosts at all.',
      fix: expect.stringMatching(/Google Chrome from its \.deb, or a Chromium that is not a snap/),
    });
  });

  test('Firefox snap: warn, explaining the WebExtensions portal and what to check; the rest still runs', async () => {
    const sys = tempSystem();
    await install({ browsers: ['firefox'], ids: IDS, hostCommand: fakeHostCommand('answer') }, sys);
    const r = await doctor({ browsers: ['firefox'], ids: IDS, detected: [{ browser: 'firefox', where: '/snap/bin/firefox', sandbox: 'snap' }] }, sys);
    expect(r.ok).toBe(true);
    expect(r.checks[0]).toMatchObject({ check: 'sandbox', status: 'warn', detail: expect.stringMatching(/is a snap: .*WebExtensions portal, which reads ~\/\.mozilla\/native-messaging-hosts/) });
    expect(r.checks[0]?.fix).toMatch(/widget\.use-xdg-desktop-portal\.native-messaging/);
    expect(r.checks.map((c) => c.status)).toEqual(['warn', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });

  test('Flatpak: warn with the flatpak-spawn --host wrapper steps; ok once a manifest exists in the sandbox', async () => {
    const sys = tempSystem();
    const detected = [{ browser: 'chromium' as const, where: '~/.var/app/org.chromium.Chromium', sandbox: 'flatpak' as const }];
    const first = await doctor({ browsers: ['chromium'], ids: IDS, detected }, sys);
    const launcher = path.join(sys.home, '.local', 'share', 'getlist', 'getlist-host');
    expect(first.checks[0]).toMatchObject({ check: 'sandbox', status: 'warn' });
    expect(first.checks[0]?.fix).toContain('flatpak override --user --talk-name=org.freedesktop.Flatpak org.chromium.Chromium');
    expect(first.checks[0]?.fix).toContain(`exec flatpak-spawn --host '${launcher}' "$@"`);
    const inSandbox = path.join(sys.home, '.var', 'app', 'org.chromium.Chromium', 'config', 'chromium', 'NativeMessagingHosts');
    expect(first.checks[0]?.fix).toContain(inSandbox);
    fs.mkdirSync(inSandbox, { recursive: true });
    fs.writeFileSync(path.join(inSandbox, 'dev.getlist.host.json'), '{}');
    const second = await doctor({ browsers: ['chromium'], ids: IDS, detected }, sys);
    expect(second.checks[0]).toMatchObject({ check: 'sandbox', status: 'ok' });
  });
});
