import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { doctorCommand } from '../../native-host/cli/doctor-command';
import { installCommand } from '../../native-host/cli/install-command';
import type { Browser } from '../../native-host/install/browser-name';
import { doctor, type DoctorCheck } from '../../native-host/install/doctor';
import { readExtensionIdentity } from '../../native-host/install/extension-identity';
import { install } from '../../native-host/install/install';
import { capture, fakeHostCommand, REPO, tempDir, tempSystem } from './support';

const ids = readExtensionIdentity(REPO, { fs, platform: 'linux' });
type Sys = ReturnType<typeof tempSystem>;

async function installed(mode: Parameters<typeof fakeHostCommand>[0], browsers: readonly Browser[] = ['chrome', 'firefox']): Promise<Sys> {
  const sys = tempSystem();
  await install({ browsers, ids, hostCommand: fakeHostCommand(mode) }, sys);
  return sys;
}

async function checks(sys: Sys, browser: 'chrome' | 'chromium' | 'firefox', helloTimeoutMs = 5000): Promise<DoctorCheck[]> {
  return (await doctor({ browsers: [browser], ids, detected: [], helloTimeoutMs }, sys)).checks;
}

const chromeManifest = (sys: Sys) => path.join(sys.home, '.config', 'google-chrome', 'NativeMessagingHosts', 'dev.getlist.host.json');
const summary = (cs: DoctorCheck[]) => cs.map((c) => `${c.check}: ${c.status}`);

describe('getlist doctor', () => {
  test('passes on a good install, starting the host like a browser: its arguments, PATH=/usr/bin:/bin', async () => {
    const sys = await installed('answer');
    const c = capture();
    expect(await doctorCommand(['--browser', 'chrome,firefox'], c.io, { sys })).toBe(0);
    expect(c.out()).toMatch(/^chrome$/m);
    expect(c.out()).toMatch(/ok\s+host answers\s+hello answered in \d+ ms \(getlist fake, protocol 3\)/);
    expect(c.out()).not.toMatch(/FAIL/);
    const seen = JSON.parse(fs.readFileSync(path.join(sys.home, 'fake-host-seen.json'), 'utf8'));
    // Firefox ran last: it passes the manifest path and the add-on id.
    expect(seen).toEqual({ args: [path.join(sys.home, '.mozilla', 'native-messaging-hosts', 'dev.getlist.host.json'), 'getlist@getlist.dev'], path: '/usr/bin:/bin', pid: expect.any(Number) });
    const chromeOnly = await doctor({ browsers: ['chrome'], ids, detected: [] }, sys);
    expect(chromeOnly.ok).toBe(true);
    expect(summary(chromeOnly.checks)).toEqual(['manifest found: ok', 'manifest valid: ok', 'extension allowed: ok', 'launcher: ok', 'host answers: ok']);
    expect(JSON.parse(fs.readFileSync(path.join(sys.home, 'fake-host-seen.json'), 'utf8')).args).toEqual([`chrome-extension://${ids.chromeId}/`]);
  });

  test('--json reports every check; a failure exits 1 with E_DOCTOR_FAILED naming it', async () => {
    const sys = await installed('answer', ['firefox']);
    const c = capture();
    await expect(doctorCommand(['--browser', 'chromium,firefox', '--json'], c.io, { sys })).rejects.toMatchObject({
      code: 'E_DOCTOR_FAILED',
      exitCode: 1,
      message: '1 check(s) failed: chromium manifest found',
    });
    const doc = JSON.parse(c.out());
    expect(doc).toMatchObject({ ok: false, hostName: 'dev.getlist.host', extensionId: ids.chromeId, geckoId: 'getlist@getlist.dev' });
    expect(doc.checks.filter((x: DoctorCheck) => x.browser === 'firefox').every((x: DoctorCheck) => x.status === 'ok')).toBe(true);
  });

  test('a FIFO where the manifest goes: FAIL saying what it is, without waiting for a writer', async () => {
    const sys = tempSystem();
    fs.mkdirSync(path.dirname(chromeManifest(sys)), { recursive: true });
    execFileSync('mkfifo', [chromeManifest(sys)]);
    const cs = await checks(sys, 'chrome');
    expect(cs[0]).toMatchObject({ check: 'manifest found', status: 'fail', detail: `cannot read ${chromeManifest(sys)}: it is a FIFO (named pipe), not a regular file` });
  });

  test('missing manifest: FAIL with the path and the install command; later checks are skipped', async () => {
    const sys = tempSystem();
    const cs = await checks(sys, 'chrome');
    expect(cs[0]).toEqual({ browser: 'chrome', check: 'manifest found', status: 'fail', detail: `no manifest at ${chromeManifest(sys)}`, fix: 'getlist install --browser chrome' });
    expect(cs.slice(1).map((x) => x.status)).toEqual(['skip', 'skip', 'skip', 'skip']);
  });

  test('invalid JSON: FAIL saying so', async () => {
    const sys = await installed('answer');
    fs.writeFileSync(chromeManifest(sys), '{"name": "dev.getlist.host",');
    const cs = await checks(sys, 'chrome');
    expect(cs[1]).toMatchObject({ check: 'manifest valid', status: 'fail', detail: expect.stringMatching(/dev\.getlist\.host\.json: not valid JSON/), fix: 'getlist install --browser chrome' });
  });

  test('wrong extension id: FAIL naming the id that should be there', async () => {
    const sys = await installed('answer');
    const m = JSON.parse(fs.readFileSync(chromeManifest(sys), 'utf8'));
    m.allowed_origins = ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'];
    fs.writeFileSync(chromeManifest(sys), JSON.stringify(m));
    const cs = await checks(sys, 'chrome');
    expect(summary(cs)).toEqual(['manifest found: ok', 'manifest valid: ok', 'extension allowed: fail', 'launcher: ok', 'host answers: ok']);
    expect(cs[2]?.detail).toContain(`it does not name this extension, "chrome-extension://${ids.chromeId}/"`);
  });

  test('wrong type and gecko id are reported for Firefox too', async () => {
    const sys = await installed('answer');
    const file = path.join(sys.home, '.mozilla', 'native-messaging-hosts', 'dev.getlist.host.json');
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...m, type: 'pipe', allowed_extensions: ['other@example.com'] }));
    const cs = await checks(sys, 'firefox');
    expect(cs[1]?.detail).toMatch(/"type" is "pipe", expected "stdio"/);
    expect(cs[2]?.detail).toMatch(/"allowed_extensions" is \["other@example.com"\]; it does not name this extension, "getlist@getlist.dev"/);
  });

  test('non-absolute launcher path: FAIL, host not run', async () => {
    const sys = await installed('answer');
    const m = JSON.parse(fs.readFileSync(chromeManifest(sys), 'utf8'));
    fs.writeFileSync(chromeManifest(sys), JSON.stringify({ ...m, path: 'getlist-host' }));
    const cs = await checks(sys, 'chrome');
    expect(cs[3]).toMatchObject({ check: 'launcher', status: 'fail', detail: expect.stringMatching(/"path" "getlist-host" is not absolute/) });
    expect(cs[4]).toMatchObject({ check: 'host answers', status: 'skip' });
  });

  test('non-executable launcher: FAIL with its mode and a chmod fix', async () => {
    const sys = await installed('answer');
    const launcher = path.join(sys.home, '.local', 'share', 'getlist', 'getlist-host');
    fs.chmodSync(launcher, 0o644);
    const cs = await checks(sys, 'chrome');
    expect(cs[3]).toEqual({ browser: 'chrome', check: 'launcher', status: 'fail', detail: `launcher ${launcher} is not executable (mode 644)`, fix: `chmod 755 '${launcher}', or getlist install --browser chrome` });
  });

  test('missing launcher: FAIL', async () => {
    const sys = await installed('answer');
    fs.rmSync(path.join(sys.home, '.local', 'share', 'getlist', 'getlist-host'));
    expect((await checks(sys, 'chrome'))[3]?.detail).toMatch(/getlist-host does not exist$/);
  });

  test('host not answering: FAIL after the time limit, and the host is gone afterwards', async () => {
    const sys = await installed('silent');
    const started = Date.now();
    const cs = await checks(sys, 'chrome', 300);
    expect(cs[4]).toMatchObject({ check: 'host answers', status: 'fail', detail: 'E_HOST_TIMEOUT: host did not answer hello within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(5000);
    const { pid } = JSON.parse(fs.readFileSync(path.join(sys.home, 'fake-host-seen.json'), 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  test('host writing garbage: "host wrote something that is not a frame", showing what it wrote', async () => {
    const sys = await installed('garbage');
    const cs = await checks(sys, 'chrome');
    expect(cs[4]?.status).toBe('fail');
    expect(cs[4]?.detail).toMatch(/^E_HOST_NOT_FRAME: host wrote something that is not a frame: .*over the 1 MiB limit; it starts "Debugger listening on ws:/);
    expect(cs[4]?.fix).toMatch(/stdout must carry frames only/);
  });

  test('host exiting before it answers: FAIL with its exit code and stderr', async () => {
    const sys = await installed('exit');
    const cs = await checks(sys, 'chrome');
    expect(cs[4]?.detail).toBe('E_HOST_EXITED: host exited with code 3 before answering hello; its stderr ends: "getlist: E_HOST_BROKEN: cannot open the store"');
  });

  test('host answering with an error: FAIL quoting its code', async () => {
    const sys = await installed('error');
    const cs = await checks(sys, 'chrome');
    expect(cs[4]?.detail).toBe('E_HOST_BAD_REPLY: host answered hello with an error: E_UNSUPPORTED_VERSION: this host speaks protocol 4');
  });

  test('a hello reply the extension would refuse: FAIL quoting what is wrong with it', async () => {
    const sys = await installed('bare');
    const cs = await checks(sys, 'chrome');
    expect(cs[4]?.detail).toMatch(/^E_HOST_BAD_REPLY: host replied with a message the extension would refuse \(.*hostVersion.*\): \{"type":"hello","id":"doctor-1"\}$/);
  });

  test('a launcher that is not a script at all: FAIL at start', async () => {
    const sys = await installed('answer');
    const launcher = path.join(sys.home, '.local', 'share', 'getlist', 'getlist-host');
    fs.writeFileSync(launcher, 'no shebang here\n');
    const cs = await checks(sys, 'chrome');
    expect(cs[4]?.status).toBe('fail');
    expect(cs[4]?.detail).toMatch(/^E_HOST_(SPAWN|EXITED): /);
  });

  test('--user-data-dir checks the manifest there; the fix repeats it', async () => {
    const sys = tempSystem();
    const profile = tempDir();
    await installCommand(['--user-data-dir', profile], capture().io, { sys, hostCommand: fakeHostCommand('answer') });
    expect(await doctorCommand(['--user-data-dir', profile], capture().io, { sys })).toBe(0);
    const other = tempDir();
    const c = capture();
    await expect(doctorCommand(['--user-data-dir', other, '--extension-id', 'pppppppppppppppppppppppppppppppp'], c.io, { sys })).rejects.toMatchObject({ code: 'E_DOCTOR_FAILED' });
    expect(c.out()).toMatch(/^\s+fix:\s+getlist install --browser chromium --user-data-dir '(.*)' --extension-id p{32}$/m);
    expect(c.out()).toContain(`--user-data-dir '${other}'`);
  });

  test('with nothing found and nothing installed it says so (E_NO_BROWSER)', async () => {
    await expect(doctorCommand([], capture().io, { sys: tempSystem() })).rejects.toMatchObject({ code: 'E_NO_BROWSER', exitCode: 1 });
  });

  test('without --browser it checks the browsers that have a manifest', async () => {
    const sys = await installed('answer', ['firefox']);
    const c = capture();
    expect(await doctorCommand([], c.io, { sys })).toBe(0);
    expect(c.out()).toMatch(/^firefox$/m);
    expect(c.out()).not.toMatch(/^chrome$/m);
  });
});

describe('the fake host used above', () => {
  test('is what the launcher runs (so these tests exercise the real launcher script)', async () => {
    const sys = await installed('answer');
    const text = fs.readFileSync(path.join(sys.home, '.local', 'share', 'getlist', 'getlist-host'), 'utf8');
    expect(text).toContain(`exec '${process.execPath}' '${path.join(__dirname, 'fixtures', 'fake-host.js')}' 'answer' "$@"`);
  });
});
