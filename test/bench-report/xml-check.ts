/**
 * A tiny well-formedness check for the SVG the report writes: one root, every tag closed in order,
 * attributes quoted, no raw `&` or `<` in text. Not a full XML parser; enough for generated markup.
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  const body = xml.replace(/^<\?xml[^>]*\?>/, '');
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m !== null; m = tag.exec(body)) {
    const text = body.slice(last, m.index);
    if (/<|&(?!(?:amp|lt|gt|quot|apos);)/.test(text)) problems.push(`bad text before offset ${m.index}: ${text.slice(0, 40)}`);
    last = m.index + m[0].length;
    const [, close, name, , selfClose] = m as unknown as [string, string, string, string, string];
    if (close) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else if (!selfClose) {
      if (stack.length === 0) roots++;
      stack.push(name);
    } else if (stack.length === 0) roots++;
  }
  const rest = body.slice(last);
  if (rest.trim() !== '') problems.push(`trailing text or an unparsed tag: ${rest.slice(0, 40)}`);
  if (stack.length) problems.push(`unclosed: ${stack.join(' ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

/** x coordinates of each `<polyline>`'s points, keyed by its data-series. */
export function polylines(svg: string): Map<string, number[][]> {
  const out = new Map<string, number[][]>();
  for (const m of svg.matchAll(/<polyline[^>]*data-series="([^"]*)"[^>]*points="([^"]*)"/g)) {
    const pts = (m[2] as string).split(' ').map((p) => p.split(',').map(Number));
    out.set(m[1] as string, pts);
  }
  return out;
}
