/** Runs PROBE_PROGRAM inside one of a link's namespaces and reads its JSON lines. */
import { createInterface } from 'node:readline';
import type { Link } from './link-emulator';
import { PROBE_PROGRAM } from './self-check-probe-program';

export type ProbeConfig = { mode: string; deadlineMs: number } & Record<string, unknown>;
export type ProbeLine = Record<string, unknown>;

export interface Probe {
  /** The next line the probe prints; rejects on `{error}`, on exit without a line, or after `timeoutMs`. */
  next(timeoutMs: number): Promise<ProbeLine>;
  /** Closes the probe's stdin, which tells servers and holders to report and exit. */
  endInput(): void;
}

export function startProbe(link: Link, side: 'client' | 'server', cfg: ProbeConfig): Probe {
  const exec = side === 'client' ? link.execInClient : link.execInServer;
  const child = exec(process.execPath, ['-e', PROBE_PROGRAM, JSON.stringify(cfg)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: ProbeLine[] = [];
  const waiting: Array<() => void> = [];
  let stderr = '';
  let exited = false;
  const wake = (): void => {
    for (const w of waiting.splice(0)) w();
  };
  child.stderr?.setEncoding('utf8').on('data', (s: string) => {
    stderr = (stderr + s).slice(-2000);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(JSON.parse(line) as ProbeLine);
    wake();
  });
  child.once('close', () => {
    exited = true;
    wake();
  });
  const what = `${cfg.mode} probe in the ${side} namespace`;
  return {
    next: (timeoutMs) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} printed nothing within ${timeoutMs} ms`)), timeoutMs);
      const check = (): void => {
        const line = lines.shift();
        if (line !== undefined) {
          clearTimeout(timer);
          if (line.error !== undefined) reject(new Error(`${what} failed: ${String(line.error)}`));
          else resolve(line);
        } else if (exited) {
          clearTimeout(timer);
          reject(new Error(`${what} exited without a result${stderr ? `: ${stderr.trim()}` : ''}`));
        } else waiting.push(check);
      };
      check();
    }),
    endInput: () => {
      child.stdin?.end();
    },
  };
}

/** Reads a numeric field of a probe line, failing loudly if the probe's output changed shape. */
export function num(line: ProbeLine, key: string): number {
  const v = line[key];
  if (typeof v !== 'number') throw new Error(`probe line lacks numeric ${key}: ${JSON.stringify(line)}`);
  return v;
}
