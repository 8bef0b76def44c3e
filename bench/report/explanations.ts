/**
 * Why a goal was missed, written by people, kept next to the results so that regenerating
 * RESULTS.md does not lose it. The file is a JSON object; each key names one goal row as
 * `<cell> | <target>`, exactly as the Goals table prints them (e.g.
 * `"mcmanus-159 @ mcmanus-100 | getlist ÷ http bound ≤ 1.3"`), and each value is the explanation.
 * A missed goal with no entry reads "why: not yet explained".
 */
import { readFileSync } from 'node:fs';
import { ReportError } from './load-results';

export type Explanations = ReadonlyMap<string, string>;

export function explanationKey(where: string, target: string): string {
  return `${where} | ${target}`;
}

export function parseExplanations(text: string, name = 'explanations'): Explanations {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `${name}: not JSON: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ReportError('E_REPORT_INPUT', `${name}: should be an object of "<cell> | <target>": "why"`);
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(doc)) {
    if (typeof v !== 'string' || v.trim() === '') throw new ReportError('E_REPORT_INPUT', `${name}: ${JSON.stringify(k)} should map to a non-empty string`);
    if (!k.includes(' | ')) throw new ReportError('E_REPORT_INPUT', `${name}: key ${JSON.stringify(k)} should read "<cell> | <target>"`);
    out.set(k, v.trim());
  }
  return out;
}

export function readExplanations(path: string): Explanations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `cannot read ${path}: ${(err as Error).message}`);
  }
  return parseExplanations(text, path);
}
