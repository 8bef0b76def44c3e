/** Why the namespace tests cannot run here, or undefined when they can (root, and not GETLIST_NETNS=0). */
export function netnsSkipReason(): string | undefined {
  if (process.env.GETLIST_NETNS === '0') return 'GETLIST_NETNS=0';
  if (process.platform !== 'linux') return `network namespaces need Linux, this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'not root (the link emulator needs root for namespaces and TUN devices)';
  return undefined;
}

/** `describe`, or `describe.skip` with the reason printed once. */
export function describeNetns(name: string, body: () => void): void {
  const reason = netnsSkipReason();
  if (reason) {
    process.stdout.write(`skipping "${name}": ${reason}\n`);
    describe.skip(name, body);
  } else describe(name, body);
}
