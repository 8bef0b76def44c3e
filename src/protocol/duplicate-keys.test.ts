import { mulberry32 } from '../core/prng';
import { findDuplicateKey, refuseDuplicateKeys, type DuplicateKey } from './duplicate-keys';

/** A JSON value kept as written: an object is its member list, so repeated keys survive. */
type Node = { object: Array<[string, Node]> } | { array: Node[] } | { leaf: string | number | boolean | null };

// Few keys, so repeats come by chance; quotes, backslashes, brackets and non-ASCII test the scanner.
const KEYS = ['a', 'b', 'type', 'id', 'é', '"', '\\', '{', ',', '😀', '', 'a\u0000'];
// String values that look like members or brackets must never count.
const STRINGS = ['{"a":1,"a":2}', '"', '\\', '[', ']', '}', ',"a":', 'x', ''];

function generate(rand: () => number, depth: number): Node {
  const r = rand();
  if (depth > 0 && r < 0.35) {
    const n = Math.floor(rand() * 5);
    return { object: Array.from({ length: n }, () => [KEYS[Math.floor(rand() * KEYS.length)] as string, generate(rand, depth - 1)]) };
  }
  if (depth > 0 && r < 0.55) return { array: Array.from({ length: Math.floor(rand() * 4) }, () => generate(rand, depth - 1)) };
  const leaves = [() => STRINGS[Math.floor(rand() * STRINGS.length)] as string, () => Math.floor(rand() * 1000) - 500, () => rand() < 0.5, () => null];
  return { leaf: (leaves[Math.floor(rand() * leaves.length)] as () => string | number | boolean | null)() };
}

/** A string literal with some characters written as `\uXXXX`, as any JSON writer may. */
function stringLiteral(s: string, rand: () => number): string {
  let out = '"';
  for (const ch of s) {
    const plain = JSON.stringify(ch).slice(1, -1);
    out += rand() < 0.3 ? Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join('') : plain;
  }
  return `${out}"`;
}

function serialize(node: Node, rand: () => number): string {
  const ws = () => [' ', '\n', '\t', '', ''][Math.floor(rand() * 5)] as string;
  if ('leaf' in node) return typeof node.leaf === 'string' ? stringLiteral(node.leaf, rand) : JSON.stringify(node.leaf);
  if ('array' in node) return `[${ws()}${node.array.map((v) => serialize(v, rand)).join(`${ws()},${ws()}`)}${ws()}]`;
  return `{${ws()}${node.object.map(([k, v]) => `${stringLiteral(k, rand)}${ws()}:${ws()}${serialize(v, rand)}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

/** The reference: the first key that repeats in its object, in the order the text is written. */
function firstDuplicate(node: Node, path = ''): DuplicateKey | undefined {
  if ('leaf' in node) return undefined;
  if ('array' in node) {
    for (const [i, v] of node.array.entries()) {
      const found = firstDuplicate(v, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [k, v] of node.object) {
    if (seen.has(k)) return { key: k, path };
    seen.add(k);
    const found = firstDuplicate(v, path === '' ? k : `${path}.${k}`);
    if (found) return found;
  }
  return undefined;
}

function value(node: Node): unknown {
  if ('leaf' in node) return node.leaf;
  if ('array' in node) return node.array.map(value);
  return Object.fromEntries(node.object.map(([k, v]) => [k, value(v)]));
}

describe('findDuplicateKey', () => {
  test('on random JSON it finds what the reference finds: the same key at the same path, or nothing', () => {
    let withDuplicates = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const rand = mulberry32(seed);
      const tree = generate(rand, 6);
      const text = serialize(tree, rand);
      const expected = firstDuplicate(tree);
      expect({ seed, found: findDuplicateKey(text) }).toEqual({ seed, found: expected });
      // The text is the tree: without repeats, JSON.parse reads back exactly what was generated.
      if (expected) withDuplicates++;
      else expect(JSON.parse(text)).toEqual(value(tree));
    }
    // Both kinds were tried, in numbers.
    expect(withDuplicates).toBeGreaterThan(300);
    expect(withDuplicates).toBeLessThan(2700);
  });

  test.each<[string, string, DuplicateKey | undefined]>([
    ['the ping that is a forget', '{"type":"ping","type":"forget"}', { key: 'type', path: '' }],
    ['a key written with an escape', '{"type":"ping","typ\\u0065":"forget"}', { key: 'type', path: '' }],
    ['a repeat after a nested object closed', '{"a":{"b":1,"c":[1,{"d":2}]},"a":2}', { key: 'a', path: '' }],
    ['a repeat inside a list item', '{"requests":[{"url":"x"},{"url":"y","url":"z"}]}', { key: 'url', path: 'requests[1]' }],
    ['a repeat in an object in arrays', '[[0,{"k":1,"k":1}]]', { key: 'k', path: '[0][1]' }],
    ['one key in sibling objects', '[{"a":1},{"a":2}]', undefined],
    ['one key at two depths', '{"a":{"a":{"a":1}}}', undefined],
    ['members written inside a string value', '{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\\\"}', undefined],
    ['keys that differ only by case', '{"Type":1,"type":2}', undefined],
  ])('%s', (_what, text, expected) => {
    expect(findDuplicateKey(text)).toEqual(expected);
  });

  test('deep nesting is scanned without recursion', () => {
    const depth = 200_000;
    expect(findDuplicateKey(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBeUndefined();
    const found = findDuplicateKey(`${'{"k":'.repeat(depth)}{"x":1,"x":2}${'}'.repeat(depth)}`);
    expect(found?.key).toBe('x');
    expect(found?.path).toBe(Array(depth).fill('k').join('.'));
  });

  test('a 1 MiB object of 100000 keys: every key is distinct, and a repeat of the first at the end is found', () => {
    const members = Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(members.length).toBeGreaterThan(1024 * 1024);
    expect(findDuplicateKey(`{${members}}`)).toBeUndefined();
    expect(findDuplicateKey(`{${members},"k0":0}`)).toEqual({ key: 'k0', path: '' });
  });

  test.each(['{"a', '{"a":"\\', '{"a":1,"a', '"\\u12', '}}]]{', ''])('malformed text %j ends without throwing', (text) => {
    expect(() => findDuplicateKey(text)).not.toThrow();
  });
});

describe('refuseDuplicateKeys', () => {
  test('a repeated key is E_DUPLICATE_KEY with no id, naming the key and where it is', () => {
    expect(() => refuseDuplicateKeys('{"id":1,"type":"ping","type":"forget"}')).toThrow(
      expect.objectContaining({ code: 'E_DUPLICATE_KEY', id: null, message: 'key "type" appears twice in the top-level object; a message names each key once, so that it cannot be read two ways' }),
    );
    expect(() => refuseDuplicateKeys('{"requests":[{"url":"a","url":"b"}]}')).toThrow(expect.objectContaining({ message: expect.stringMatching(/^key "url" appears twice in the object at requests\[0\];/) }));
    expect(() => refuseDuplicateKeys('{"type":"ping","id":1}')).not.toThrow();
  });

  test('a long key is described, not echoed', () => {
    const key = 'x'.repeat(100_000);
    let message = '';
    try {
      refuseDuplicateKeys(`{"${key}":1,"${key}":2}`);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^key a string of 100000 characters \("x{40}"…\) appears twice/);
    expect(message.length).toBeLessThan(200);
  });
});
