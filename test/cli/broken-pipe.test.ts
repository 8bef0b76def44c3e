import { spawn } from 'node:child_process';
import path from 'node:path';
import { BROKEN_PIPE_EXIT } from '../../native-host/cli/broken-pipe';

/**
 * A command whose stdout reader has gone (`getlist … | head`) ends at once with the shell's
 * SIGPIPE status and no stack trace; the reader is gone before the command writes its first byte.
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');

function runWithoutReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, GETLIST_DATA_DIR: '/nonexistent-getlist-test' } });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test.each([[['--help']], [['load', '--help']], [['version']]])('getlist %j with its stdout reader gone: exit 141, nothing on stderr', async (args) => {
  for (let i = 0; i < 5; i++) {
    const r = await runWithoutReader(args);
    expect(r).toEqual({ code: BROKEN_PIPE_EXIT, stderr: '' });
  }
}, 30_000);
