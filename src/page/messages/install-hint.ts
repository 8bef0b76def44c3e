/**
 * The one documented way to get the `getlist` command on PATH without the public registry
 * (docs/native-host.md, "Installing the command"): pack it from a checkout and install the
 * tarball globally, then register the host. Never `npx getlist`: outside the checkout npx looks
 * the name up in the public registry.
 */
export const INSTALL_FROM_CHECKOUT = [
  'cd /path/to/getlist   # your getlist checkout',
  'npm ci && npm run build && npm run pack:cli',
  'npm install -g ./getlist-*.tgz',
  'getlist install',
].join('\n');
