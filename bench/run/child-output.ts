/** Collects a child's stdout and stderr and settles once it exits, killing it after `timeoutMs`. */
import type { ChildProcess } from 'node:child_process';
import { BenchRunError } from '../cli/bench-run-error';

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const MAX_CAPTURE = 64 * 1024 * 1024;

export function childOutput(child: ChildProcess, timeoutMs: number, what: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (s: string) => { if (stdout.length < MAX_CAPTURE) stdout += s; });
    child.stderr?.setEncoding('utf8').on('data', (s: string) => { if (stderr.length < 64 * 1024) stderr += s; });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new BenchRunError('E_RUN_FAILED', `${what}: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) reject(new BenchRunError('E_RUN_TIMEOUT', `${what}: killed after ${timeoutMs} ms`));
      else resolve({ code, signal, stdout, stderr });
    });
  });
}
