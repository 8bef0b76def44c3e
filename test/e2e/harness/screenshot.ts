import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';

/** Where the e2e suites leave screenshots for a human (gitignored). */
export const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');

/** Saves a full-page PNG of `page` as `artifacts/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}
