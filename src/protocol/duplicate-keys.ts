import { describe } from './check';
import { ProtocolError } from './errors';

/**
 * RFC 8259 §4 leaves an object with two members of one name to the parser, and `JSON.parse` keeps
 * the last: `{"type":"ping","type":"forget"}` is a `forget`. A native message must mean one thing,
 * so frames are scanned for a repeated key (compared after unescaping: `"typ\u0065"` is `"type"`)
 * at any depth.
 */
export interface DuplicateKey {
  /** The repeated key, unescaped. */
  key: string;
  /** Where the object holding it is, in validator notation (`requests[3]`); `''` for the top level. */
  path: string;
}

/**
 * @throws ProtocolError `E_DUPLICATE_KEY` (id null: a message that reads two ways has no one id)
 * when the text repeats a key.
 */
export function refuseDuplicateKeys(text: string): void {
  const dup = findDuplicateKey(text);
  if (!dup) return;
  const where = dup.path === '' ? 'the top-level object' : `the object at ${dup.path}`;
  throw new ProtocolError('E_DUPLICATE_KEY', `key ${describe(dup.key)} appears twice in ${where}; a message names each key once, so that it cannot be read two ways`);
}

type Level = { kind: 'object'; keys: Set<string>; expectKey: boolean; key: string } | { kind: 'array'; index: number };

/**
 * The first repeated key of JSON text in document order, or undefined when there is none. One
 * pass over the text with an explicit stack (no recursion, so any depth is safe); each key is
 * sliced once and looked up in its object's set, so the work is linear in the text's length.
 * Meant for text `JSON.parse` accepted; on malformed text it still ends, and its answer does not matter.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Level[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        const key = unescape(text, i, end);
        if (top.keys.has(key)) return { key, path: pathOf(stack) };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE) {
      stack.push({ kind: 'object', keys: new Set(), expectKey: true, key: '' });
    } else if (c === OPEN_BRACKET) {
      stack.push({ kind: 'array', index: 0 });
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
    } else if (c === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'array') top.index += 1;
      else if (top) top.expectKey = true;
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The index of the quote closing the string that opens at `start` (the text's end if none does). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/** The string between the quotes at `start` and `end`, its escapes resolved. */
function unescape(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** The path of the innermost object: each enclosing object's current key, each array's index. */
function pathOf(stack: readonly Level[]): string {
  let path = '';
  for (let d = 0; d < stack.length - 1; d++) {
    const level = stack[d] as Level;
    path += level.kind === 'array' ? `[${level.index}]` : path === '' ? level.key : `.${level.key}`;
  }
  return path;
}
