/**
 * The zoo suites need each member's Debian package. A member missing from the machine FAILS with
 * the package to install (scripts/preflight.mjs lists them; .ci/run installs them), unless
 * GETLIST_ZOO=0 says to skip the zoo on purpose.
 */
import { accessSync, constants } from 'node:fs';
import { ZOO_INFO, type ZooMember } from '../../bench/origins/zoo/zoo-members';

export function missingMember(member: ZooMember): string | undefined {
  const info = ZOO_INFO[member];
  const needs = [info.binary, ...(info.proxy ? [ZOO_INFO.nginx.binary] : []), ...(member === 'varnish' ? ['/usr/bin/varnishncsa'] : [])];
  for (const file of needs) {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      return `${member}: ${file} is missing: install it with \`apt-get install -y ${info.debianPackage}${info.proxy ? ' nginx' : ''}\` (.ci/run does this), or set GETLIST_ZOO=0 to skip the zoo suites`;
    }
  }
  return undefined;
}

export function describeZoo(name: string, body: () => void): void {
  if (process.env.GETLIST_ZOO === '0') {
    describe.skip(`${name} (skipped: GETLIST_ZOO=0)`, body);
    return;
  }
  describe(name, body);
}
