/**
 * The scripted user in a real browser tab (puppeteer-core: Chromium over CDP, Firefox over WebDriver
 * BiDi): opens the index, then for each step of its path hovers each other link for the hover time,
 * hovers the chosen link for the hover time and clicks it, waits for the next page to load and
 * settle, and reads the view's metrics (view-metrics.ts). Wall-clock times of each step go with the
 * results, so the servers' logs are split by step (nav-judge.ts). Hover is the real pointer:
 * puppeteer moves the mouse (CDP `Input.dispatchMouseEvent`, BiDi `input.performActions`); the
 * `pointerover` events the page saw are counted per step, the evidence that it did.
 */
import { join } from 'node:path';
import type { Page, Tracing } from 'puppeteer-core';
import { VIEW_METRICS, type ViewMetrics } from './view-metrics';
import { VIEW_TRACE_CATEGORIES } from './view-trace';
import type { NavStep } from './user-path';

export interface WalkOptions {
  origin: string;
  steps: readonly NavStep[];
  hoverMs: number;
  /** Per navigation. */
  timeoutMs: number;
  /** After load, before the metrics: late images and the page's own late work. */
  settleMs: number;
  progress?: (line: string) => void;
  /**
   * Chromium: record a trace of each step from the click to the metrics (view-trace.ts), written to
   * `<dir>/<label>-<step>.json`. Tracing costs the browser time, so a traced walk's figures are
   * read against each other, not against an untraced walk's.
   */
  trace?: { dir: string; label: string };
}

export interface StepResult extends Partial<ViewMetrics> {
  step: number;
  target: string;
  /** Epoch ms: the first hover of the step, and the click. */
  hoverAt: number;
  clickAt: number;
  /** Epoch ms: the page had loaded and settled (its metrics read after). */
  settledAt: number;
  /** `pointerover` events the page saw while the user hovered. */
  pointerEvents: number;
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const COUNT_POINTER = `(() => { window.__navPointer = 0; document.addEventListener('pointerover', () => { window.__navPointer++; }, true); })()`;

async function anchor(page: Page, href: string): Promise<NonNullable<Awaited<ReturnType<Page['$']>>>> {
  const el = await page.$(`a[href=${JSON.stringify(href)}]`);
  if (el === null) throw new Error(`no link ${href} on ${page.url()}`);
  return el;
}

const isDetached = (err: unknown): boolean => /detached Frame/i.test((err as Error).message);

/** Waits until the tab shows `url` fully loaded; an evaluation lost to the navigation is retried. */
async function arrived(page: Page, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await page.evaluate('[location.href, document.readyState]').catch((err: unknown) => {
      if (isDetached(err)) throw err;
      return undefined;
    })) as string[] | undefined;
    if (state?.[0] === url && state[1] === 'complete') return;
    if (Date.now() > deadline) throw new Error(`did not arrive at ${url} within ${timeoutMs} ms (at ${state?.[0] ?? '?'}, ${state?.[1] ?? '?'})`);
    await sleep(50);
  }
}

/**
 * The tab's page as puppeteer sees it now. Activating a prerender swaps the tab's main frame; when
 * puppeteer misses the swap its old frame stays detached and every evaluation fails, so the walk
 * takes the browser's page that shows `url` (or the only one left) and goes on there.
 */
async function current(page: Page, url: string): Promise<Page> {
  const pages = (await page.browser().pages().catch(() => [])).filter((p) => !p.isClosed() && !p.mainFrame().detached && p.url().startsWith('http'));
  return pages.find((p) => p.url() === url && p !== page) ?? pages.find((p) => p !== page) ?? page;
}

/**
 * `page` once its main frame answers again. puppeteer waits 100 ms for a prerender's activation to
 * swap the tab's frame tree in, and past that drops the old main frame; the swap still comes, with
 * a new main frame, when Chromium is slower than that. So a detached frame is waited out for up to
 * {@link SWAP_WAIT_MS} before the tab's other pages are looked at.
 */
async function live(page: Page, url: string): Promise<Page> {
  const deadline = Date.now() + SWAP_WAIT_MS;
  for (;;) {
    try {
      await page.evaluate('1');
      return page;
    } catch (err) {
      if (!isDetached(err)) throw err;
      if (Date.now() > deadline) return current(page, url);
      await sleep(100);
    }
  }
}

const SWAP_WAIT_MS = 3000;

export async function walk(first: Page, o: WalkOptions): Promise<StepResult[]> {
  let page = first;
  const results: StepResult[] = [];
  const start = o.steps[0]?.from ?? '/index.html';
  await page.goto(`${o.origin}${start}`, { waitUntil: 'load', timeout: o.timeoutMs });
  await sleep(o.settleMs);
  for (const [i, step] of o.steps.entries()) {
    const target = `${o.origin}${step.click}`;
    const hoverAt = Date.now();
    let clickAt = hoverAt;
    let pointerEvents = 0;
    let tracing: Tracing | undefined;
    try {
      page = await live(page, `${o.origin}${step.from}`);
      await page.evaluate(COUNT_POINTER);
      for (const href of step.hovers) {
        await (await anchor(page, href)).hover();
        await sleep(o.hoverMs);
      }
      const link = await anchor(page, step.click);
      await link.hover();
      await sleep(o.hoverMs);
      pointerEvents = Number(await page.evaluate('window.__navPointer || 0'));
      clickAt = Date.now();
      if (o.trace) {
        // The page object may be swapped by a prerender's activation: stop the tracing it started.
        tracing = page.tracing;
        await tracing.start({ path: join(o.trace.dir, `${o.trace.label}-${i}.json`), categories: VIEW_TRACE_CATEGORIES });
      }
      await link.click();
      await arrived(page, target, o.timeoutMs).catch(async (err: unknown) => {
        if (!isDetached(err)) throw err;
        o.progress?.(`step ${i + 1}: the prerender's activation left puppeteer a detached frame; waiting for the swap`);
        page = await live(page, target);
        await arrived(page, target, o.timeoutMs);
      });
      await sleep(o.settleMs);
      await tracing?.stop();
      tracing = undefined;
      const settledAt = Date.now();
      page = await live(page, target);
      const metrics = (await page.evaluate(VIEW_METRICS)) as ViewMetrics;
      results.push({ step: i, target: step.click, hoverAt, clickAt, settledAt, pointerEvents, ...metrics });
      o.progress?.(`step ${i + 1}/${o.steps.length} ${step.click}: lcp ${fmt(metrics.lcpMs)} ms, ttfb ${fmt(metrics.ttfbMs)} ms, ${metrics.deliveryType === null ? 'no deliveryType' : `delivery '${metrics.deliveryType}'`}${metrics.activationStart > 0 ? ', prerendered' : ''}, ${pointerEvents} pointer events`);
    } catch (err) {
      await tracing?.stop().catch(() => undefined);
      results.push({ step: i, target: step.click, hoverAt, clickAt, settledAt: Date.now(), pointerEvents, error: (err as Error).message });
      o.progress?.(`step ${i + 1} ${step.click}: ERROR ${(err as Error).message.slice(0, 200)}`);
      // The path continues from the page it names: go there as a user typing the address would.
      if (isDetached(err)) page = await live(page, target).catch(() => page);
      await page.goto(target, { waitUntil: 'load', timeout: o.timeoutMs }).catch(() => undefined);
    }
  }
  return results;
}

const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : String(Math.round(x)));
