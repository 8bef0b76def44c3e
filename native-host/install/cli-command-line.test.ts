import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliCommandLine } from './cli-command-line';

describe('cliCommandLine', () => {
  test('plain paths stay unquoted; a path with a space or a quote is quoted for the platform', () => {
    expect(cliCommandLine('/usr/bin/node', '/opt/getlist/bin/getlist.js', 'linux')).toBe('/usr/bin/node /opt/getlist/bin/getlist.js');
    expect(cliCommandLine('/usr/bin/node', "/home/o'neil/get list/bin/getlist.js", 'linux')).toBe("/usr/bin/node '/home/o'\\''neil/get list/bin/getlist.js'");
    expect(cliCommandLine('C:\\Program Files\\nodejs\\node.exe', 'C:\\getlist\\bin\\getlist.js', 'win32')).toBe('"C:\\Program Files\\nodejs\\node.exe" C:\\getlist\\bin\\getlist.js');
  });

  test('the line runs the real CLI through a shell from another directory, even with awkward path characters', () => {
    const dir = mkdtempSync(path.join(tmpdir(), "getlist cli 'q' "));
    try {
      const inside = path.join(dir, 'bin');
      mkdirSync(inside);
      const script = path.join(inside, 'getlist.js');
      symlinkSync(path.resolve(__dirname, '..', '..', 'bin', 'getlist.js'), script);
      const line = cliCommandLine(process.execPath, path.resolve(__dirname, '..', '..', 'bin', 'getlist.js'), process.platform);
      const out = execFileSync('/bin/sh', ['-c', `${line} --help`], { cwd: dir, encoding: 'utf8' });
      expect(out).toMatch(/^getlist \d+\.\d+\.\d+/);
      // The same through the awkward path itself (quoted): sh parses it back to the exact path.
      const quoted = cliCommandLine(process.execPath, script, process.platform);
      expect(quoted).toContain("'");
      expect(execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${quoted}`], { encoding: 'utf8' }).trim().split('\n')).toEqual([process.execPath, script]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
