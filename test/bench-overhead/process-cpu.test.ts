import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_PATH } from '../../bench/run/chromium-contender';
import { CHROMIUM_QUIET_FLAGS } from '../../bench/run/chromium-flags';
import { isFirefoxChild, parentPidOfStat, processCpuMs, processTreeCpu, roleOfCmdline, roleOfComm, runNsOfSchedstat } from '../../bench/overhead/process-cpu';
import { FIREFOX_PATH } from '../../bench/overhead/overhead-firefox';

/** Spins the CPU for `ms` of wall-clock time. */
function burn(ms: number): void {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  if (x < 0) throw new Error('unreachable');
}

/** ms of CPU this process has used, by getrusage (user + system): the kernel's other account of the same time. */
const rusageMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

describe('parsing /proc lines', () => {
  it('the parent pid is the 4th field, counted after the last ")" of the command name', () => {
    expect(parentPidOfStat('15840 (cat) R 15837 15837 14577 0 -1 4194304 100 0')).toBe(15837);
    // A command name with spaces and parentheses, as a thread or a process may set it.
    expect(parentPidOfStat('42 (a) S 7 (b) R 99 1 1 0 -1') ).toBe(99);
    expect(parentPidOfStat('42 (Chrome_ChildIOT) S 4242 4242 1 0')).toBe(4242);
    expect(parentPidOfStat('')).toBeUndefined();
    expect(parentPidOfStat('42 (x) S')).toBeUndefined();
  });

  it('agrees with the kernel about this process: /proc/self/stat names process.ppid', () => {
    expect(parentPidOfStat(readFileSync(`/proc/${process.pid}/stat`, 'utf8'))).toBe(process.ppid);
  });

  it('run time is schedstat\'s first field in ns; the wait time and slice count are not', () => {
    expect(runNsOfSchedstat('74772 16594 2\n')).toBe(74772);
    expect(runNsOfSchedstat('12345678901234 5 6')).toBe(12_345_678_901_234);
    expect(runNsOfSchedstat('')).toBeNaN();
    expect(runNsOfSchedstat('1 2')).toBeNaN();
    expect(runNsOfSchedstat('x 2 3')).toBeNaN();
  });

  it('roles from Chromium\'s rewritten titles (one space-joined string, as /proc shows its children)', () => {
    // As read from /proc/PID/cmdline of Chromium 1xx's children (trimmed; no NUL in them).
    const renderer = '/usr/lib/chromium/chromium --type=renderer --crashpad-handler-pid=0 --enable-crash-reporter=,built on Debian GNU/Linux 12 (bookworm) --noerrdialogs --user-data-dir=/tmp/getlist-overhead-ext-8HH2Zo/profile';
    expect(roleOfCmdline(`${renderer} --extension-process --change-stack-guard-on-fork=enable --no-sandbox`)).toBe('extension');
    expect(roleOfCmdline(`${renderer} --change-stack-guard-on-fork=enable --no-sandbox --renderer-client-id=7`)).toBe('page');
    expect(roleOfCmdline('/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US --service-sandbox-type=none')).toBe('network');
    expect(roleOfCmdline('/usr/lib/chromium/chromium --type=utility --utility-sub-type=storage.mojom.StorageService --service-sandbox-type=utility')).toBe('other');
    expect(roleOfCmdline('/usr/lib/chromium/chromium --type=zygote --no-zygote-sandbox')).toBe('other');
  });

  it('roles from NUL-separated command lines', () => {
    const cmd = (...a: string[]) => `${a.join('\0')}\0`;
    const chromium = '/usr/lib/chromium/chromium';
    expect(roleOfCmdline(cmd(chromium, '--type=renderer', '--extension-process', '--user-data-dir=/tmp/p', '--renderer-client-id=5'))).toBe('extension');
    expect(roleOfCmdline(cmd(chromium, '--type=renderer', '--user-data-dir=/tmp/p', '--renderer-client-id=7'))).toBe('page');
    expect(roleOfCmdline(cmd(chromium, '--type=utility', '--utility-sub-type=network.mojom.NetworkService', '--lang=en-US'))).toBe('network');
    expect(roleOfCmdline(cmd(chromium, '--type=utility', '--utility-sub-type=storage.mojom.StorageService'))).toBe('other');
    expect(roleOfCmdline(cmd(chromium, '--type=gpu-process', '--user-data-dir=/tmp/getlist-overhead-ext-x/profile'))).toBe('other');
    expect(roleOfCmdline(cmd(chromium, '--type=zygote', '--no-zygote-sandbox'))).toBe('other');
    // The native host after the launcher's exec, and the launcher before it.
    expect(roleOfCmdline(cmd('/usr/bin/node', '/work/x/bin/getlist.js', 'host', 'chrome-extension://abc/'))).toBe('host');
    expect(roleOfCmdline(cmd('/bin/sh', '/home/u/.local/share/getlist/getlist', 'chrome-extension://abc/'))).toBe('host');
    // crashpad's database lives under the profile, whose temp path says getlist: not the host.
    expect(roleOfCmdline(cmd('/usr/lib/chromium/chrome_crashpad_handler', '--database=/tmp/getlist-overhead-ext-x/profile/Crashpad'))).toBe('other');
  });
});

describe('Firefox\'s children: `-contentproc`, told apart by their names', () => {
  it('the process names Firefox ESR gives its children (/proc/PID/comm, with its newline)', () => {
    expect(roleOfComm('WebExtensions\n')).toBe('extension');
    expect(roleOfComm('Isolated Web Co\n')).toBe('page');
    expect(roleOfComm('Web Content\n')).toBe('page');
    expect(roleOfComm('Socket Process\n')).toBe('network');
    for (const other of ['RDD Process', 'Utility Process', 'forkserver', 'Privileged Cont', 'chromium']) expect(roleOfComm(`${other}\n`)).toBe('other');
  });

  it('only a -contentproc command line is a Firefox child; Chromium\'s and the host\'s are not', () => {
    expect(isFirefoxChild('/usr/lib/firefox-esr/firefox-esr\0-contentproc\0-isForBrowser\0-prefsHandle\x000:27585\0')).toBe(true);
    expect(isFirefoxChild('/usr/lib/firefox-esr/firefox-esr -contentproc -parentBuildID 20261103151912')).toBe(true);
    expect(isFirefoxChild('/usr/bin/firefox-esr\0--profile\0/tmp/p\0--headless\0')).toBe(false);
    expect(isFirefoxChild('/usr/lib/chromium/chromium --type=renderer --user-data-dir=/tmp/x-contentproc')).toBe(false);
  });
});

describe('a process tree under a /proc of our own', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'getlist-proc-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** One process: its stat line, cmdline and one schedstat per thread (run ns). */
  const proc = (pid: number, ppid: number, comm: string, args: string[], threadsRunNs: number[]) => {
    mkdirSync(join(root, String(pid), 'task'), { recursive: true });
    writeFileSync(join(root, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 0 0\n`);
    writeFileSync(join(root, String(pid), 'cmdline'), `${args.join('\0')}\0`);
    threadsRunNs.forEach((ns, i) => {
      const tid = pid * 100 + i;
      mkdirSync(join(root, String(pid), 'task', String(tid)));
      writeFileSync(join(root, String(pid), 'task', String(tid), 'schedstat'), `${ns} ${ns * 3 + 17} ${i + 1}\n`);
    });
  };

  it('sums every thread of the root and its descendants by role, and nothing outside the tree', () => {
    const c = '/usr/lib/chromium/chromium';
    proc(100, 1, 'chromium', [c, '--headless'], [5e6, 2.5e6]);
    proc(101, 100, 'chromium) (x', [c, '--type=renderer', '--renderer-client-id=4'], [30e6]);
    proc(102, 100, 'chromium', [c, '--type=renderer', '--extension-process'], [7e6, 1e6]);
    proc(103, 100, 'chromium', [c, '--type=utility', '--utility-sub-type=network.mojom.NetworkService'], [4e6]);
    proc(104, 101, 'Web Content', [c, '--type=zygote'], [0.5e6]);
    proc(105, 100, 'node', ['/usr/bin/node', '/x/bin/getlist.js', 'host'], [9e6]);
    proc(106, 105, 'sh', ['/bin/sh', '-c', 'true'], [0.25e6]);
    proc(200, 1, 'chromium', [c, '--type=renderer'], [1000e6]);
    // Not a process: /proc's other entries.
    mkdirSync(join(root, 'self'));
    writeFileSync(join(root, 'uptime'), '1 1\n');

    expect(processTreeCpu(100, root)).toEqual({ browser: 7.5, page: 30, extension: 8, network: 4, host: 9, other: 0.75 });
    expect(processTreeCpu(101, root)).toEqual({ browser: 30, page: 0, extension: 0, network: 0, host: 0, other: 0.5 });
    expect(processCpuMs(102, root)).toBe(8);
  });

  it('a Firefox tree: its children by their names, the native host by its command line', () => {
    const ff = '/usr/lib/firefox-esr/firefox-esr';
    const child = (pid: number, ppid: number, name: string, runNs: number) => {
      proc(pid, ppid, name.slice(0, 15), [ff, '-contentproc', '-isForBrowser', '7', 'tab'], [runNs]);
      writeFileSync(join(root, String(pid), 'comm'), `${name.slice(0, 15)}\n`);
    };
    proc(300, 1, 'firefox-esr', ['/usr/bin/firefox-esr', '--profile', '/tmp/p', '--headless'], [11e6]);
    child(301, 300, 'forkserver', 1e6);
    child(302, 301, 'Isolated Web Content', 40e6);
    child(303, 301, 'WebExtensions', 6e6);
    child(304, 301, 'Socket Process', 2e6);
    child(305, 301, 'Web Content', 3e6);
    proc(306, 300, 'node', ['/usr/bin/node', '/x/bin/getlist.js', 'host', 'getlist@getlist.dev'], [5e6]);
    // A -contentproc child whose name cannot be read is `other`, never guessed.
    proc(307, 301, 'Web Content', [ff, '-contentproc', 'tab'], [0.5e6]);
    expect(processTreeCpu(300, root)).toEqual({ browser: 11, page: 43, extension: 6, network: 2, host: 5, other: 1.5 });
  });

  it('a process or thread gone between the listing and the read counts 0; no root, no /proc: zeros', () => {
    proc(100, 1, 'chromium', ['c'], [5e6]);
    proc(101, 100, 'chromium', ['c', '--type=renderer'], [3e6]);
    rmSync(join(root, '101', 'task', '10100', 'schedstat'));
    mkdirSync(join(root, '102'));
    expect(processTreeCpu(100, root)).toEqual({ browser: 5, page: 0, extension: 0, network: 0, host: 0, other: 0 });
    expect(processTreeCpu(undefined, root)).toEqual({ browser: 0, page: 0, extension: 0, network: 0, host: 0, other: 0 });
    expect(processTreeCpu(100, join(root, 'absent'))).toEqual({ browser: 0, page: 0, extension: 0, network: 0, host: 0, other: 0 });
  });
});

describe('the real /proc agrees with getrusage', () => {
  it('this process: the CPU schedstat counts over a busy spell is the CPU getrusage counts', () => {
    const s0 = processCpuMs(process.pid);
    const r0 = rusageMs();
    burn(150);
    const s1 = processCpuMs(process.pid);
    const r1 = rusageMs();
    const schedstat = s1 - s0;
    const rusage = r1 - r0;
    // The spell is ~150 ms of wall-clock time; on a shared machine the CPU share of it may be less.
    expect(rusage).toBeGreaterThan(30);
    expect(Math.abs(schedstat - rusage)).toBeLessThan(0.1 * rusage + 5);
  });

  it('a child process is counted in the tree, by its role, as much as it says it used', async () => {
    // The child burns CPU, reports its own getrusage, then waits (using no CPU) until we have read /proc.
    const script = `const end = Date.now() + 150; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);
      const u = process.cpuUsage(); process.stdout.write(JSON.stringify((u.user + u.system) / 1000) + '\\n'); process.stdin.resume();`;
    // Host-like processes this one started before (the connect timer's child, when this worker
    // ran loads earlier) are in the tree too: only what comes on top of them is this child's.
    const hostBefore = processTreeCpu(process.pid).host;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const childSays = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(Number(out.trim()));
        });
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`child exited ${code} before reporting`)));
      });
      const own0 = rusageMs();
      const tree = processTreeCpu(process.pid);
      const own1 = rusageMs();
      // `node -e …` without --type= reads as a host, like the native host Chromium starts.
      expect(tree.host - hostBefore).toBeGreaterThanOrEqual(childSays * 0.9);
      // Node's own start-up before its first getrusage, and the write after it, are small.
      expect(tree.host - hostBefore).toBeLessThan(childSays * 1.1 + 80);
      expect(tree.browser).toBeGreaterThanOrEqual(own0 * 0.9);
      expect(tree.browser).toBeLessThan(own1 * 1.1 + 5);
    } finally {
      child.kill();
    }
  });
});

describe('a real Firefox', () => {
  it('its web content process is counted as the page, not as "other"', async () => {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, timeout: 30_000 });
    try {
      const page = await browser.newPage();
      const before = processTreeCpu(browser.process()?.pid);
      await page.goto('data:text/html,<script>const e = Date.now() + 150; let x = 0; while (Date.now() < e) x++;</script>');
      const cpu = processTreeCpu(browser.process()?.pid);
      expect(cpu.browser).toBeGreaterThan(0);
      // 150 ms of wall-clock spin; on a shared 2-core machine the page gets at least a fair share of it.
      expect(cpu.page - before.page).toBeGreaterThan(40);
      expect(cpu.other - before.other).toBeLessThan(cpu.page - before.page);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('a real Chromium', () => {
  it('its renderer and network service are counted in their roles, not as "other"', async () => {
    const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_QUIET_FLAGS], timeout: 20_000 });
    try {
      const page = await browser.newPage();
      // Work in the page's renderer, whose process the tree must file under `page`.
      await page.goto('data:text/html,<script>const e = Date.now() + 100; let x = 0; while (Date.now() < e) x++;</script>');
      const cpu = processTreeCpu(browser.process()?.pid);
      expect(cpu.browser).toBeGreaterThan(0);
      expect(cpu.page).toBeGreaterThan(20);
      expect(cpu.network).toBeGreaterThan(0);
      expect(cpu.other).toBeLessThan(cpu.browser + cpu.page + cpu.network);
    } finally {
      await browser.close();
    }
  }, 30_000);
});
