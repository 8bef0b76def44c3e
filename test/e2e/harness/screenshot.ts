import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { repoRoot } from '../../support/repo-root';

/** Where the e2e suites leave screenshots for a human (gitignored). */
export const ARTIFACTS = path.join(repoRoot(__dirname), 'test', 'e2e', 'artifacts');

/** Saves a full-page PNG of `page` as `artifacts/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

/**
 * Saves the page at the popup's size (420×600, what a user sees without scrolling) once per theme:
 * `artifacts/<name>-light.png` and `-dark.png`, scrolled to `scrollTo` (a selector) when given. The theme comes from prefers-color-scheme
 * (emulated) where the browser's driver supports it, else from the page's own theme toggle state
 * (`data-theme`). The page is left as it was.
 */
export async function saveThemeScreenshots(page: Page, name: string, scrollTo?: string): Promise<string[]> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const viewport = page.viewport();
  await page.setViewport({ width: 420, height: 600 });
  const files: string[] = [];
  try {
    for (const theme of ['light', 'dark'] as const) {
      const emulated = await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]).then(
        () => true,
        () => false,
      );
      await page.evaluate((t: string | null) => {
        const root = (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string | undefined> } } }).document.documentElement;
        if (t === null) delete root.dataset.theme;
        else root.dataset.theme = t;
      }, emulated ? null : theme);
      if (scrollTo) {
        await page.evaluate((sel: string) => {
          (globalThis as unknown as { document: { querySelector(s: string): { scrollIntoView(o: object): void } | null } }).document.querySelector(sel)?.scrollIntoView({ block: 'start' });
        }, scrollTo);
      }
      await new Promise((r) => setTimeout(r, 100));
      const file = path.join(ARTIFACTS, `${name.replace(/[^a-z0-9._-]+/gi, '-')}-${theme}.png`);
      await page.screenshot({ path: file as `${string}.png` });
      files.push(file);
    }
  } finally {
    await page.emulateMediaFeatures([]).catch(() => undefined);
    if (viewport) await page.setViewport(viewport);
  }
  return files;
}
