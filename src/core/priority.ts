/**
 * Priority classes, highest first. Equal classes keep FIFO order (by enqueue sequence).
 *
 * "Low-latency" classes are the ones a page cannot render without: the document itself and
 * render-blocking CSS / synchronous scripts (McManus, "HTTP Parallel Connections": a low-latency
 * request goes to the top of every queue, and may stall bulk transfers while it is outstanding).
 */
export const PRIORITY_CLASSES = [
  'document',
  'blocking',
  'font',
  'visible-image',
  'script',
  'image',
  'other',
  'prefetch',
] as const;

export type PriorityClass = (typeof PRIORITY_CLASSES)[number];

const RANK: ReadonlyMap<string, number> = new Map(PRIORITY_CLASSES.map((c, i) => [c, i]));

/** 0 for `document` (most urgent) up to 7 for `prefetch`. */
export function priorityRank(priority: PriorityClass): number {
  return RANK.get(priority) ?? PRIORITY_CLASSES.length - 1;
}

export function isPriorityClass(value: unknown): value is PriorityClass {
  return typeof value === 'string' && RANK.has(value);
}

export function isLowLatency(priority: PriorityClass): boolean {
  return priority === 'document' || priority === 'blocking';
}

/** Resource types whose response can name more resources (discovery kinds and webRequest types). */
const NAMES_RESOURCES: ReadonlySet<string> = new Set(['document', 'main_frame', 'sub_frame', 'stylesheet']);

/**
 * Order within a priority class, lower first: a document or stylesheet before the rest of its
 * class. Browsers rank them so (Chromium: stylesheets "Highest", parser-blocking scripts "High",
 * both of which are `blocking` here — P. Meenan, "Resource Priorities and Scheduling in Chrome",
 * 2017), and for the page's completion it matters most: a stylesheet's response heads chains
 * (its `@import`s, fonts and backgrounds), a script's ends one. Sending order is the one lever an
 * HTTP/2 client has with undici (priority-signal.ts), and servers that ignore the `priority` field
 * answer streams roughly in the order they were opened.
 */
export function rankInClass(resourceType: string | undefined): number {
  return resourceType !== undefined && NAMES_RESOURCES.has(resourceType) ? 0 : 1;
}
