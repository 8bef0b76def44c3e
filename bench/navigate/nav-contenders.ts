/**
 * Who walks the path in a cell: the browser alone; with the built extension as installed (its
 * default settings); with the extension set to prerender (Chromium, `--prerender`: Options →
 * prerender, stored as a user's choice is), at the default eagerness (a hover prerenders only a
 * page loaded before) and at `eager` (a hover prerenders any page); and (Chromium, `--rules`) the
 * browser alone on pages into which the bench writes the speculation rules a site could ship
 * itself — document rules, same-origin links outside the account bar, `moderate` eagerness (a
 * hover of 200 ms or a pointerdown) — the reference for what the browser's own mechanism gives on
 * this site. `getlist-no-hints`, the extension with its learned hints off, walks only when `--only`
 * names it.
 */
export const NAV_CONTENDERS = ['alone', 'getlist', 'getlist-prerender', 'getlist-prerender-eager', 'rules', 'getlist-no-hints'] as const;
export type NavContender = (typeof NAV_CONTENDERS)[number];

/**
 * The contenders that walk with the extension, each with the settings patch it is given before
 * the walk (its storage key, src/page/messages/settings.ts; empty: as installed).
 */
const EXTENSION_SETTINGS: Partial<Record<NavContender, { prerender?: true; eagerness?: 'eager'; hints?: false }>> = {
  getlist: {},
  'getlist-prerender': { prerender: true },
  'getlist-prerender-eager': { prerender: true, eagerness: 'eager' },
  // Walked only when `--only` names it: what the learned hints' push at commit costs or gains a speculated page.
  'getlist-no-hints': { hints: false },
};

export const usesExtension = (c: NavContender): boolean => EXTENSION_SETTINGS[c] !== undefined;

/** The extension set to prerender, at either eagerness. */
export const prerenders = (c: NavContender): boolean => EXTENSION_SETTINGS[c]?.prerender === true;

/** The settings patch the extension is given before the walk; undefined: none. */
export function settingsFor(c: NavContender): Record<string, unknown> | undefined {
  const patch = EXTENSION_SETTINGS[c];
  return patch !== undefined && Object.keys(patch).length > 0 ? patch : undefined;
}

/** The speculation rules `rules` writes into every page (the account bar's links left out by selector). */
export const SITE_RULES = {
  prefetch: [{ where: { and: [{ href_matches: '/*' }, { not: { selector_matches: '.account a' } }] }, eagerness: 'moderate' }],
};

/** Run in every new document before its scripts: adds {@link SITE_RULES} once the DOM is there. */
export const INJECT_RULES = `document.addEventListener('DOMContentLoaded', () => {
  const s = document.createElement('script');
  s.type = 'speculationrules';
  s.textContent = ${JSON.stringify(JSON.stringify(SITE_RULES))};
  document.head.appendChild(s);
});`;
