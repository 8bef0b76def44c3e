/**
 * A zoo benchmark stopped by a signal leaves no server behind: the member's daemons, started in
 * process groups of their own, are killed and its work directory removed, as at a normal exit.
 * Root only; needs the built dist/bench/zoo.js.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeNetns } from '../bench-link/netns-gate';
import { describeZoo, missingMember } from './zoo-gate';

const root = join(__dirname, '..', '..');
const zooJs = join(root, 'dist', 'bench', 'zoo.js');

/** Processes whose command line names a zoo work directory under `tmp` (the run's own TMPDIR): its member's daemons. */
const daemonsUnder = (tmp: string): string[] => spawnSync('pgrep', ['-f', join(tmp, 'getlist-zoo-')], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

describeZoo('zoo bench: stopping on a signal', () => {
  describeNetns('with Apache serving', () => {
    test.each(['SIGTERM', 'SIGINT'] as const)('%s during a load: the member\'s daemons and work directory are gone', async (signal) => {
      const missing = missingMember('apache');
      if (missing) throw new Error(missing);
      if (!existsSync(zooJs)) throw new Error('dist/bench/zoo.js is not built (npm run build)');
      const tmp = mkdtempSync(join(tmpdir(), 'gl-zoo-signal-'));
      const out = join(tmp, 'zoo.json');
      const child = spawn(process.execPath, [zooJs, '--servers', 'apache', '--parts', 'pm', '--runs', '3', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
      let stderr = '';
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/run 1\/3 \w+: /.test(stderr)) resolve();
        });
        void exited.then(() => reject(new Error(`zoo.js exited before its first load:\n${stderr}`)));
      });
      // Apache runs from the run's work directory: the fault's precondition.
      expect(daemonsUnder(tmp).length).toBeGreaterThan(0);
      child.kill(signal);
      const end = await exited;
      expect(end.signal ?? end.code).not.toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      const left = daemonsUnder(tmp);
      // A failure must not leave them running for the suites after it.
      spawnSync('pkill', ['-KILL', '-f', join(tmp, 'getlist-zoo-')]);
      expect(left).toEqual([]);
      expect(readdirSync(tmp).filter((f) => f.startsWith('getlist-zoo-'))).toEqual([]);
      rmSync(tmp, { recursive: true, force: true });
    }, 90_000);
  });
});
