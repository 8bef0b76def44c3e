import { BROWSERS, type Browser } from './browser-name';
import { pathFor, type InstallSystem } from './system';

/** Snap and Flatpak browsers run confined and cannot simply start a host outside their sandbox. */
export type Sandbox = 'snap' | 'flatpak';

/** One installation of a browser found on this machine. */
export interface DetectedBrowser {
  browser: Browser;
  /** What was found: an executable, an app bundle, a snap or flatpak directory. */
  where: string;
  sandbox?: Sandbox;
}

type Sys = Pick<InstallSystem, 'platform' | 'env' | 'homedir' | 'fs' | 'systemRoot'>;

const PATH_NAMES: Record<Browser, readonly string[]> = {
  chrome: ['google-chrome', 'google-chrome-stable'],
  chromium: ['chromium', 'chromium-browser'],
  firefox: ['firefox', 'firefox-esr'],
};
const SNAP_NAMES: Partial<Record<Browser, string>> = { chromium: 'chromium', firefox: 'firefox' };
const FLATPAK_IDS: Record<Browser, string> = { chrome: 'com.google.Chrome', chromium: 'org.chromium.Chromium', firefox: 'org.mozilla.firefox' };
const MAC_APPS: Record<Browser, readonly string[]> = {
  chrome: ['Google Chrome.app'],
  chromium: ['Chromium.app'],
  firefox: ['Firefox.app', 'Firefox Developer Edition.app', 'Firefox Nightly.app'],
};

/**
 * Finds installed browsers: on Linux, the executables on PATH (`google-chrome`, `chromium`,
 * `chromium-browser`, `firefox`, `firefox-esr`), snaps (`/snap/bin/<name>`, `~/snap/<name>`) and
 * flatpaks (`~/.var/app/<id>`, `/var/lib/flatpak/app/<id>`, `~/.local/share/flatpak/app/<id>`);
 * on macOS, app bundles in `/Applications` and `~/Applications`; on Windows, the usual
 * `chrome.exe` / `firefox.exe` install paths. A PATH entry that resolves to snapd, or is a
 * wrapper script that runs a snap (Ubuntu's `chromium-browser`, `firefox`), counts as a snap.
 * A browser may appear more than once (say a .deb Firefox and a snap one); each is one entry.
 */
export function detectBrowsers(sys: Sys): DetectedBrowser[] {
  const found: DetectedBrowser[] = [];
  const add = (d: DetectedBrowser) => {
    if (!found.some((f) => f.browser === d.browser && f.sandbox === d.sandbox)) found.push(d);
  };
  if (sys.platform === 'darwin') detectMac(sys, add);
  else if (sys.platform === 'win32') detectWindows(sys, add);
  else detectLinux(sys, add);
  return found.sort((a, b) => BROWSERS.indexOf(a.browser) - BROWSERS.indexOf(b.browser));
}

/** The distinct browsers in a detection, in BROWSERS order. */
export function foundBrowsers(detected: readonly DetectedBrowser[]): Browser[] {
  return BROWSERS.filter((b) => detected.some((d) => d.browser === b));
}

function detectLinux(sys: Sys, add: (d: DetectedBrowser) => void): void {
  const p = pathFor('linux');
  const root = (...parts: string[]) => p.join(sys.systemRoot, ...parts);
  const pathDirs = (sys.env.PATH ?? '').split(':').filter((d) => p.isAbsolute(d));
  for (const browser of BROWSERS) {
    for (const name of PATH_NAMES[browser]) {
      for (const dir of pathDirs) {
        const file = p.join(dir, name);
        if (!isExecutableFile(sys, file)) continue;
        const sandbox = snapWrapped(sys, file) ? 'snap' : undefined;
        add({ browser, where: file, ...(sandbox ? { sandbox } : {}) });
      }
    }
    const snap = SNAP_NAMES[browser];
    if (snap !== undefined) {
      for (const where of [root('snap', 'bin', snap), p.join(sys.homedir, 'snap', snap)]) {
        if (sys.fs.existsSync(where)) add({ browser, where, sandbox: 'snap' });
      }
    }
    const id = FLATPAK_IDS[browser];
    for (const where of [p.join(sys.homedir, '.var', 'app', id), root('var', 'lib', 'flatpak', 'app', id), p.join(sys.homedir, '.local', 'share', 'flatpak', 'app', id)]) {
      if (sys.fs.existsSync(where)) add({ browser, where, sandbox: 'flatpak' });
    }
  }
}

function detectMac(sys: Sys, add: (d: DetectedBrowser) => void): void {
  const p = pathFor('darwin');
  for (const browser of BROWSERS) {
    for (const dir of [p.join(sys.systemRoot, 'Applications'), p.join(sys.homedir, 'Applications')]) {
      for (const app of MAC_APPS[browser]) {
        const where = p.join(dir, app);
        if (sys.fs.existsSync(where)) add({ browser, where });
      }
    }
  }
}

function detectWindows(sys: Sys, add: (d: DetectedBrowser) => void): void {
  const p = pathFor('win32');
  const bases = [sys.env.ProgramFiles, sys.env['ProgramFiles(x86)'], sys.env.LOCALAPPDATA].filter((b): b is string => !!b);
  const rel: Record<Browser, string[]> = {
    chrome: ['Google\\Chrome\\Application\\chrome.exe'],
    chromium: ['Chromium\\Application\\chrome.exe'],
    firefox: ['Mozilla Firefox\\firefox.exe'],
  };
  for (const browser of BROWSERS) {
    for (const base of bases) {
      for (const r of rel[browser]) {
        const where = p.join(base, r);
        if (sys.fs.existsSync(where)) add({ browser, where });
      }
    }
  }
}

function isExecutableFile(sys: Sys, file: string): boolean {
  try {
    const st = sys.fs.statSync(file);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Whether a PATH entry is a snap: a link to snapd's `snap` binary, or a script that runs one. */
function snapWrapped(sys: Sys, file: string): boolean {
  try {
    const real = sys.fs.realpathSync(file);
    if (real.startsWith(pathFor('linux').join(sys.systemRoot, 'snap') + '/') || real.endsWith('/snap')) return true;
    const head = readHead(sys, real, 4096);
    return head.startsWith('#!') && /\/snap\/bin\/|\bsnap run\b/.test(head);
  } catch {
    return false;
  }
}

function readHead(sys: Sys, file: string, max: number): string {
  const fd = sys.fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = sys.fs.readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    sys.fs.closeSync(fd);
  }
}
