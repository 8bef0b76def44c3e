import { h } from './dom';

/**
 * Light and dark themes: `auto` follows prefers-color-scheme; the toggle forces one and remembers
 * it per extension (localStorage of the extension's origin, shared by the popup and its pages).
 * The colours themselves are in theme.css, keyed on `:root[data-theme]`.
 */
export type Theme = 'auto' | 'light' | 'dark';

const KEY = 'getlist-theme';
const NEXT: Readonly<Record<Theme, Theme>> = { auto: 'light', light: 'dark', dark: 'auto' };
const LABEL: Readonly<Record<Theme, string>> = { auto: 'Theme: auto', light: 'Theme: light', dark: 'Theme: dark' };

export function storedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'auto';
  } catch {
    return 'auto';
  }
}

export function applyTheme(theme: Theme = storedTheme()): void {
  const root = document.documentElement;
  if (theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** A small button cycling auto → light → dark. */
export function themeToggle(): HTMLButtonElement {
  let theme = storedTheme();
  const b = h('button', { type: 'button', class: 'theme-toggle', 'data-testid': 'theme-toggle', title: 'Switch between the system theme, light and dark' }, LABEL[theme]);
  b.addEventListener('click', () => {
    theme = NEXT[theme];
    try {
      if (theme === 'auto') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, theme);
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
    applyTheme(theme);
    b.textContent = LABEL[theme];
  });
  return b;
}
