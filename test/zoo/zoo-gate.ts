/**
 * The zoo suites need each member's Debian package. A member missing from the machine FAILS with
 * the package to install (scripts/preflight.mjs lists them; .ci/run installs them), unless
 * GETLIST_ZOO=0 says to skip the zoo on purpose.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { ZOO_INFO, type ZooMember } from '../../bench/origins/zoo/zoo-members';

const executable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export function missingMember(member: ZooMember): string | undefined {
  // A member is up when `ss` shows its sockets (bench/origins/zoo/zoo-process.ts).
  if (!['/usr/bin/ss', '/bin/ss', '/usr/sbin/ss', '/sbin/ss'].some(executable)) {
    return 'ss is missing: install it with `apt-get install -y iproute2` (.ci/run does this), or set GETLIST_ZOO=0 to skip the zoo suites';
  }
  const info = ZOO_INFO[member];
  if (member === 'lighttpd' && !existsSync('/usr/lib/lighttpd/mod_openssl.so')) {
    return 'lighttpd: /usr/lib/lighttpd/mod_openssl.so is missing: install it with `apt-get install -y lighttpd-mod-openssl` (.ci/run does this), or set GETLIST_ZOO=0 to skip the zoo suites';
  }
  const needs = [info.binary, ...(info.proxy ? [ZOO_INFO.nginx.binary] : []), ...(member === 'varnish' ? ['/usr/bin/varnishncsa'] : [])];
  const missing = needs.find((file) => !executable(file));
  return missing === undefined
    ? undefined
    : `${member}: ${missing} is missing: install it with \`apt-get install -y ${info.debianPackage}${info.proxy ? ' nginx' : ''}\` (.ci/run does this), or set GETLIST_ZOO=0 to skip the zoo suites`;
}

export function describeZoo(name: string, body: () => void): void {
  if (process.env.GETLIST_ZOO === '0') {
    describe.skip(`${name} (skipped: GETLIST_ZOO=0)`, body);
    return;
  }
  describe(name, body);
}
