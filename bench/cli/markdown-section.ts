/**
 * Replaces one `## ` section of a markdown document (its heading line to the next `## ` heading),
 * or inserts it before `before` (else at the end) when the document has none: how a benchmark that
 * is not part of the packet-level matrix keeps its own section of bench/RESULTS.md.
 */
export function replaceSection(markdown: string, heading: string, body: string, before?: string): string {
  const section = `## ${heading}\n\n${body.trim()}\n\n`;
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === `## ${heading}`);
  if (start >= 0) {
    const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    const tail = next < 0 ? '' : lines.slice(next).join('\n');
    return `${lines.slice(0, start).join('\n')}\n${section}${tail}`.replace(/^\n/, '');
  }
  const at = before === undefined ? -1 : lines.findIndex((l) => l === `## ${before}`);
  if (at < 0) return `${markdown.replace(/\n*$/, '\n\n')}${section}`.replace(/\n+$/, '\n');
  return `${lines.slice(0, at).join('\n')}\n${section}${lines.slice(at).join('\n')}`;
}
