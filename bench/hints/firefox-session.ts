/**
 * One Firefox hints run: spawns dist/bench/hints-firefox-driver.js inside the client namespace
 * (firefox-driver.ts says why it must run there), marks the origins' log when the driver is about to
 * make the measured load, and reads the run's requests off that log — the same observer as
 * Chromium's runs (hints-session.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { FirefoxDriverOptions, FirefoxDriverResult } from './firefox-driver';
import { servedSince, type HintsRun, type HintsSessionOptions } from './hints-session';

const DRIVER = resolve(__dirname, 'hints-firefox-driver.js');
const live = new Set<ChildProcess>();

export function killFirefoxDriversSync(): void {
  for (const p of live) if (p.exitCode === null) p.kill('SIGKILL');
  live.clear();
}

export async function firefoxSession(o: HintsSessionOptions): Promise<HintsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'getlist-bench-hints-ff-'));
  const options: FirefoxDriverOptions = { url: o.url, withExtension: o.contender.startsWith('firefox+getlist'), hintsOff: o.contender === 'firefox+getlist-off', extensionDir: o.extensionDir, dir, expectedRequests: o.expectedRequests, timeoutMs: o.timeoutMs };
  // Detached: a group of its own, so the browser the driver started dies with it on a timeout.
  const child = spawn('ip', ['netns', 'exec', o.clientNs, process.execPath, DRIVER, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const timer = setTimeout(() => kill(child), 4 * o.timeoutMs);
  try {
    let before: number | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      let msg: { event?: string; message?: string } & Partial<FirefoxDriverResult>;
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        continue; // Firefox's own chatter
      }
      if (msg.event === 'measure') {
        before = o.origins.accessLog().length;
        child.stdin.write('go\n');
      } else if (msg.event === 'error') {
        throw new Error(`${o.contender} driver: ${msg.message ?? 'failed'}`);
      } else if (msg.event === 'result') {
        if (before === undefined) throw new Error(`${o.contender} driver: a result without a measured load`);
        const r = msg as FirefoxDriverResult;
        return {
          completeMs: r.completeMs,
          fcpMs: r.fcpMs,
          lcpMs: r.lcpMs,
          lcpElement: r.lcpElement,
          ...servedSince(o.origins, before),
          warmUpVisits: r.warmUpVisits,
          ...(r.hints !== undefined ? { hints: r.hints } : {}),
          ...(r.learned !== undefined ? { learned: r.learned } : {}),
          ...(r.timeline !== undefined ? { timeline: r.timeline } : {}),
        };
      }
    }
    throw new Error(`${o.contender} driver exited (${child.exitCode ?? child.signalCode}) without a result: ${stderr.slice(-800)}`);
  } finally {
    clearTimeout(timer);
    kill(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
  live.delete(child);
}
