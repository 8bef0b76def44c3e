import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as args from '../../native-host/cli/args';
import { COMMANDS } from '../../native-host/cli/main';
import { STRATEGY_NAMES } from '../../src/scheduler';
import { STRATEGY_SUMMARIES } from '../../src/scheduler/strategy-summaries';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/level-store';

// The help is read from the built CLI (npm test builds before Jest), as a user runs it. The option
// list each help must cover is taken from the parser itself: the table each command hands to
// parseArgs, caught by a spy while the command refuses an unknown option.
const bin = path.join(__dirname, '..', '..', 'bin', 'getlist.js');

function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), ...env } });
}

/** The flag table `command` passes to parseArgs. */
async function parserFlags(command: string): Promise<Record<string, args.FlagSpec>> {
  const spy = jest.spyOn(args, 'parseArgs');
  try {
    const run = COMMANDS[command]?.run;
    if (!run) throw new Error(`no command ${command}`);
    const io = { out: () => undefined, err: () => undefined };
    await expect(run(['--no-such-option-anywhere'], io)).rejects.toMatchObject({ code: 'E_USAGE', message: expect.stringContaining('unknown option --no-such-option-anywhere') });
    expect(spy).toHaveBeenCalledTimes(1);
    return spy.mock.calls[0]?.[2] as Record<string, args.FlagSpec>;
  } finally {
    spy.mockRestore();
  }
}

/** `--name`s that start a line of the help's options section. */
function documentedOptions(help: string): string[] {
  const section = help.split('\noptions:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}--([a-z0-9-]+)/gm)].map((m) => m[1] as string);
}

/** The help's text for `--name`: its line and the indented lines that continue it, joined. */
function optionText(help: string, name: string): string {
  const lines = help.split('\n');
  const i = lines.findIndex((l) => new RegExp(`^ {2}--${name}(\\s|$)`).test(l));
  if (i < 0) return '';
  const text = [lines[i] as string];
  for (let j = i + 1; j < lines.length && /^ {4,}\S/.test(lines[j] as string); j++) text.push(lines[j] as string);
  return text.map((l) => l.trim()).join(' ').replace(/\s+/g, ' ');
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

// `host` is started by the browser and ignores its arguments: it has no parser to ask.
const PARSED = Object.keys(COMMANDS).filter((c) => c !== 'host');

describe('getlist <command> --help', () => {
  test('covers every command, and the parsed ones are the commands other than host', () => {
    expect(PARSED.length).toBe(Object.keys(COMMANDS).length - 1);
    const top = cli(['--help']);
    expect(top.status).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(top.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    // The summaries start in one column.
    const columns = new Set(top.stdout.split('\n').filter((l) => /^ {2}[a-z]+ {2,}\S/.test(l)).map((l) => /^ {2}[a-z]+ +/.exec(l)?.[0].length));
    expect([...columns]).toHaveLength(1);
  });

  test.each(PARSED)('%s --help lists every option its parser accepts, with its meaning and default', async (command) => {
    const flags = await parserFlags(command);
    expect(flags).toBe(COMMANDS[command]?.help.flags);
    const r = cli([command, '--help']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(documentedOptions(r.stdout).sort()).toEqual(Object.keys(flags).sort());
    const usage = squash(r.stdout.split('\n\n')[0] ?? '');
    for (const [name, spec] of Object.entries(flags)) {
      expect(usage).toContain(`--${name}`);
      expect(spec.description.length).toBeGreaterThan(10);
      const text = optionText(r.stdout, name);
      expect(text).toContain(squash(spec.description));
      if (spec.type === 'string') expect(text).toMatch(new RegExp(`^--${name} \\S`));
      if (spec.default !== undefined) expect(text).toContain(`default: ${squash(spec.default)}`);
    }
  });

  test('host --help says it takes no options and ignores its arguments', () => {
    expect(COMMANDS.host?.help.flags).toEqual({});
    const r = cli(['host', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^options: none$/m);
    expect(squash(r.stdout)).toContain('Arguments are logged and ignored');
  });

  test.each(['load', 'demo'])('%s --help names every strategy with what it does', (command) => {
    const help = squash(cli([command, '--help']).stdout);
    for (const name of STRATEGY_NAMES) expect(help).toContain(`${name} ${STRATEGY_SUMMARIES[name]}`);
  });

  test('`help <command>` prints the same as `<command> --help`; an unknown one is E_USAGE', () => {
    expect(cli(['help', 'stats']).stdout).toBe(cli(['stats', '--help']).stdout);
    const bad = cli(['help', 'frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^getlist: E_USAGE: no command "frobnicate"/);
  });
});

/** Runs the built CLI without blocking this process's event loop (a test server lives in it). */
function cliAsync(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function withPage<T>(fn: (origin: string, accepted: () => number) => Promise<T>): Promise<T> {
  let accepted = 0;
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>x</title>'));
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => accepted);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('load does what its help says it does by default: the default strategies, one run each', async () => {
  const help = cli(['load', '--help']).stdout;
  const documented = /default: ([a-z0-9,]+)\)/.exec(optionText(help, 'strategy'))?.[1]?.split(',');
  expect(documented?.length).toBeGreaterThan(0);
  expect(optionText(help, 'repeat')).toContain('(default: 1)');
  const r = await withPage((origin) => cliAsync(['load', `${origin}/`, '--json']));
  expect(r.code).toBe(0);
  const runs = (JSON.parse(r.stdout) as { runs: Array<{ strategy: string; repeat: number }> }).runs;
  expect(runs.map((x) => x.strategy)).toEqual(documented);
  expect(runs.every((x) => x.repeat === 1)).toBe(true);
});

describe('getlist stats says how data gets into the store', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-help-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  test('with no store it names --record and the extension', () => {
    const r = cli(['stats', '--data-dir', path.join(tmp, 'none')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^0 handshakes in /);
    expect(r.stdout).toMatch(/^Nothing is stored yet\. .*`getlist install`.*`getlist load --record URL`/m);
  });

  test('with an empty store it says so, with the same pointers', async () => {
    const dataDir = path.join(tmp, 'data');
    await (await openStore({ dir: storeDirIn(dataDir) })).close();
    const r = cli(['stats', '--data-dir', dataDir]);
    expect(r.stdout).toMatch(/^The store holds no handshakes\. .*`getlist load --record URL`/m);
  });

  test('after `load --record` it counts what the server accepted; a filter that matches nothing says so', async () => {
    const dataDir = path.join(tmp, 'data');
    await withPage(async (origin, accepted) => {
      const load = await cliAsync(['load', `${origin}/`, '--strategy', 'http10', '--record', '--data-dir', dataDir]);
      expect(load.code).toBe(0);
      expect(accepted()).toBeGreaterThan(0);
      const all = cli(['stats', '--data-dir', dataDir]);
      expect(all.stdout).toMatch(new RegExp(`^${accepted()} handshakes? in `));
    });
    const none = cli(['stats', '--data-dir', dataDir, '--origin', 'http://elsewhere.test']);
    expect(none.stdout).toMatch(/^0 handshakes in /);
    expect(none.stdout).toMatch(/^No stored handshake matches; without --origin, --since and --until every one counts\.$/m);
  });
});
