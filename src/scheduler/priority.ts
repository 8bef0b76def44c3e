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
