import type { RealCellResult } from './real-bench';

/**
 * Several runs of the same cells as one (`real.js --report a.json,b.json`): the cells of one link
 * and page across the files, their loads in file order. Two builds compared side by side run in
 * turns (parent, this build, parent, …) so that the machine's drift falls on both; their files are
 * pooled per build. Cells only some files have are kept as they are.
 */
export function poolRealCells(files: ReadonlyArray<readonly RealCellResult[]>): RealCellResult[] {
  const pooled = new Map<string, RealCellResult>();
  for (const cells of files) {
    for (const c of cells) {
      const key = `${c.link}\u0000${c.page}`;
      const into = pooled.get(key);
      if (into === undefined) {
        pooled.set(key, structuredClone(c));
        continue;
      }
      into.runs = appendEach(into.runs, c.runs);
      into.errors = appendEach(into.errors, c.errors);
      into.traces = appendEach(into.traces, c.traces);
      into.server = appendEach(into.server, c.server);
      if (into.pipelining !== undefined || c.pipelining !== undefined) into.pipelining = appendEach(into.pipelining ?? {}, c.pipelining ?? {});
    }
  }
  return [...pooled.values()];
}

function appendEach<T>(into: Record<string, T[]>, more: Record<string, T[]>): Record<string, T[]> {
  const out: Record<string, T[]> = { ...into };
  for (const [k, v] of Object.entries(more)) out[k] = [...(out[k] ?? []), ...structuredClone(v)];
  return out;
}
