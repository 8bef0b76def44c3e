import { probeHello, type HelloResult } from './hello-probe';
import { shQuote } from './launcher';
import type { InstallSystem } from './system';

export interface HostCheckResult {
  ok: boolean;
  detail: string;
  fix?: string;
}

/**
 * Starts the launcher as `browser` would and reports whether the host answered hello, with the
 * reason and a fix when it did not.
 */
export async function checkHostAnswers(launcher: string, args: readonly string[], installFix: string, sys: InstallSystem, timeoutMs?: number): Promise<HostCheckResult> {
  const hello = await probeHello({ launcher, args, env: browserLikeEnv(sys), platform: sys.platform, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  if (hello.ok) return { ok: true, detail: `hello answered in ${hello.ms} ms (getlist ${hello.reply.hostVersion}, protocol ${hello.reply.protocolVersion})` };
  return { ok: false, detail: helloDetail(hello), fix: helloFix(hello, launcher, installFix) };
}

/**
 * Browsers start hosts with little on PATH, so node must not be found through the user's shell
 * setup. HOME and the data-dir variables stay: the browser has them, and the host's store needs them.
 */
export function browserLikeEnv(sys: Pick<InstallSystem, 'platform' | 'env' | 'homedir'>): Record<string, string> {
  const keep = sys.platform === 'win32' ? ['SystemRoot', 'ComSpec', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'GETLIST_DATA_DIR'] : ['GETLIST_DATA_DIR', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'LANG'];
  const env: Record<string, string> = {};
  for (const k of keep) {
    const v = sys.env[k];
    if (v !== undefined) env[k] = v;
  }
  if (sys.platform === 'win32') {
    const windir = sys.env.SystemRoot ?? 'C:\\Windows';
    env.PATH = `${windir}\\system32;${windir}`;
  } else {
    Object.assign(env, { PATH: '/usr/bin:/bin', HOME: sys.homedir });
  }
  return env;
}

function helloDetail(h: Extract<HelloResult, { ok: false }>): string {
  const tail = h.stderr.trim().split('\n').slice(-3).join(' | ');
  return `${h.code}: ${h.reason}${tail ? `; its stderr ends: ${JSON.stringify(tail.slice(-300))}` : ''}`;
}

function helloFix(h: Extract<HelloResult, { ok: false }>, launcher: string, installFix: string): string {
  const run = shQuote(launcher);
  switch (h.code) {
    case 'E_HOST_SPAWN':
      return `check the launcher's first line and mode (\`head -n 3 ${run}\`), or ${installFix}`;
    case 'E_HOST_EXITED':
      if (h.stderr.includes('E_NOT_BUILT')) return 'npm run build';
      return `see why it exits: \`${run} </dev/null\`; after moving node or the getlist checkout, ${installFix}`;
    case 'E_HOST_NOT_FRAME':
      return `stdout must carry frames only: find what prints text with \`${run} </dev/null | head -c 200 | od -c\` (a console.log in the host, or something the launcher runs)`;
    case 'E_HOST_TIMEOUT':
      return `the host must answer hello within the time limit: check that \`${run}\` starts and reads frames on stdin (\`npm run build\` if dist/ is stale)`;
    case 'E_HOST_BAD_REPLY':
      return `the host and this getlist disagree on the protocol: \`npm run build\`, then ${installFix}`;
  }
}
