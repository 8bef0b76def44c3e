import type { DetectedBrowser } from './browsers';
import { HOST_NAME } from './host-manifest';
import { shQuote } from './launcher';
import { pathFor, type InstallSystem } from './system';

export interface SandboxAdvice {
  /** `fail` when the browser cannot reach any host at all; `warn` when extra steps make it work. */
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** Where each Flatpak browser looks for host manifests inside its sandbox (relative to home). */
const FLATPAK_MANIFEST_DIR = {
  firefox: ['.var', 'app', 'org.mozilla.firefox', '.mozilla', 'native-messaging-hosts'],
  chromium: ['.var', 'app', 'org.chromium.Chromium', 'config', 'chromium', 'NativeMessagingHosts'],
  chrome: ['.var', 'app', 'com.google.Chrome', 'config', 'google-chrome', 'NativeMessagingHosts'],
} as const;
const FLATPAK_ID = { firefox: 'org.mozilla.firefox', chromium: 'org.chromium.Chromium', chrome: 'com.google.Chrome' } as const;

/**
 * What a confined browser needs to reach the host. Snap and Flatpak browsers cannot execute
 * programs outside their sandbox. Firefox (snap, and recent flatpaks) asks the xdg-desktop-portal
 * WebExtensions portal to start the host, which reads the normal manifest
 * (firefox-source-docs "Native messaging for a strictly-confined Firefox"). The Chromium snap has
 * no such path. A Flatpak browser can run the launcher through `flatpak-spawn --host` when
 * allowed to talk to org.freedesktop.Flatpak.
 */
export function sandboxAdvice(d: DetectedBrowser, launcher: string, sys: Pick<InstallSystem, 'homedir' | 'fs'>): SandboxAdvice {
  if (d.sandbox === 'snap') {
    if (d.browser === 'firefox') {
      return {
        status: 'warn',
        detail:
          `Firefox at ${d.where} is a snap: it cannot start a program outside its sandbox itself. It asks the ` +
          'xdg-desktop-portal WebExtensions portal, which reads ~/.mozilla/native-messaging-hosts and asks you once to allow getlist. ' +
          'Without that portal native messaging fails with a generic error.',
        fix:
          'make sure your xdg-desktop-portal provides org.freedesktop.portal.WebExtensions ' +
          '(`busctl --user introspect org.freedesktop.portal.Desktop /org/freedesktop/portal/desktop | grep WebExtensions`) and that ' +
          'about:config widget.use-xdg-desktop-portal.native-messaging is not 0; or use Firefox from Mozilla\'s APT repository or tarball',
      };
    }
    return {
      status: 'fail',
      detail: `${d.browser === 'chromium' ? 'Chromium' : 'Chrome'} at ${d.where} is a snap: snap-confined Chromium cannot start native messaging hosts at all.`,
      fix: 'use Google Chrome from its .deb, or a Chromium that is not a snap, then `getlist install --browser chrome` (or chromium)',
    };
  }
  if (d.sandbox === 'flatpak') {
    const p = pathFor('linux');
    const dir = p.join(sys.homedir, ...FLATPAK_MANIFEST_DIR[d.browser]);
    const manifest = p.join(dir, `${HOST_NAME}.json`);
    if (sys.fs.existsSync(manifest)) {
      return { status: 'ok', detail: `${d.browser} is a Flatpak (${d.where}); a host manifest exists inside its sandbox at ${manifest}` };
    }
    const id = FLATPAK_ID[d.browser];
    const wrapper = p.join(sys.homedir, '.var', 'app', id, 'data', 'getlist-host-flatpak');
    return {
      status: 'warn',
      detail:
        `${d.browser} at ${d.where} is a Flatpak: it cannot run the launcher outside its sandbox, and does not read the manifest getlist installed.` +
        (d.browser === 'firefox' ? ' Recent Firefox flatpaks can use the WebExtensions portal instead (see the snap note).' : ''),
      fix:
        `flatpak override --user --talk-name=org.freedesktop.Flatpak ${id}; ` +
        `write ${wrapper} containing \`#!/bin/sh\` and \`exec flatpak-spawn --host ${shQuote(launcher)} "$@"\` (chmod 755); ` +
        `copy the installed ${HOST_NAME}.json to ${dir}/ with "path" set to that wrapper`,
    };
  }
  return { status: 'ok', detail: `${d.where}` };
}
