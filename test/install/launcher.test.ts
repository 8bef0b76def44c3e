import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { batQuote, defaultHostCommand, launcherScript, shQuote } from '../../native-host/install/launcher';
import { tempDir } from './support';

describe('launcher script', () => {
  test('POSIX: execs node and the CLI by absolute path, quoted, forwarding the browser arguments', () => {
    const cmd = defaultHostCommand('/opt/node 20/bin/node', "/home/o'brien/getlist", 'linux');
    expect(cmd).toEqual(['/opt/node 20/bin/node', "/home/o'brien/getlist/bin/getlist.js", 'host']);
    expect(launcherScript(cmd, 'linux')).toBe(
      "#!/bin/sh\n# getlist native messaging host launcher, written by `getlist install`.\n" +
        "exec '/opt/node 20/bin/node' '/home/o'\\''brien/getlist/bin/getlist.js' 'host' \"$@\"\n",
    );
  });

  test('the POSIX script runs under a minimal PATH and passes arguments with spaces and quotes through intact', () => {
    const dir = tempDir();
    const weird = path.join(dir, "it's a $dir `x`");
    fs.mkdirSync(weird);
    const echo = path.join(weird, 'echo-args.js');
    fs.writeFileSync(echo, 'process.stdout.write(JSON.stringify(process.argv.slice(2)))');
    const launcher = path.join(dir, 'getlist-host');
    fs.writeFileSync(launcher, launcherScript([process.execPath, echo, 'host'], 'linux'), { mode: 0o755 });
    const r = spawnSync(launcher, ['chrome-extension://abc/', '--parent-window=0', "a b'c"], { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(['host', 'chrome-extension://abc/', '--parent-window=0', "a b'c"]);
  });

  test('Windows: the default command joins with backslashes', () => {
    expect(defaultHostCommand('C:\\node\\node.exe', 'C:\\src\\getlist', 'win32')).toEqual(['C:\\node\\node.exe', 'C:\\src\\getlist\\bin\\getlist.js', 'host']);
  });

  test('Windows: a .bat that keeps cmd quiet, doubles %, and forwards %*', () => {
    expect(launcherScript(['C:\\Program Files\\nodejs\\node.exe', 'C:\\src\\100%\\bin\\getlist.js', 'host'], 'win32')).toBe(
      '@echo off\r\n"C:\\Program Files\\nodejs\\node.exe" "C:\\src\\100%%\\bin\\getlist.js" "host" %*\r\n',
    );
  });

  test('characters a script cannot hold are refused with E_LAUNCHER_PATH', () => {
    expect(() => batQuote('C:\\a"b')).toThrow(expect.objectContaining({ code: 'E_LAUNCHER_PATH' }));
    expect(() => shQuote('a\0b')).toThrow(expect.objectContaining({ code: 'E_LAUNCHER_PATH' }));
    expect(() => launcherScript([], 'linux')).toThrow(expect.objectContaining({ code: 'E_LAUNCHER_PATH' }));
  });
});
