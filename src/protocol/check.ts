import { ProtocolError, type RequestId } from './errors';

/**
 * Field checks for validators. Each names the field's path (`requests[3].url`), what was expected
 * and what arrived, and throws a `ProtocolError` carrying the request id read so far.
 */
export type Fields = Record<string, unknown>;

/** A short description of a value for error messages: never echoes more than a few dozen characters. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `a string of ${value.length} characters (${JSON.stringify(value.slice(0, 40))}…)` : JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? `the number ${value}` : String(value);
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

export function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export class Checker {
  constructor(readonly id: RequestId | null) {}

  fail(code: ConstructorParameters<typeof ProtocolError>[0], message: string): never {
    throw new ProtocolError(code, message, this.id);
  }

  invalid(path: string, expected: string, got: unknown): never {
    this.fail('E_INVALID_FIELD', `${path}: expected ${expected}, got ${describe(got)}`);
  }

  /** The field's value; `E_MISSING_FIELD` when absent (undefined counts as absent). */
  required(obj: Fields, key: string, path: string): unknown {
    const v = obj[key];
    if (v === undefined) this.fail('E_MISSING_FIELD', `${join(path, key)}: required field is missing`);
    return v;
  }

  string(obj: Fields, key: string, path: string, maxLength: number): string {
    return this.asString(this.required(obj, key, path), join(path, key), maxLength);
  }

  optionalString(obj: Fields, key: string, path: string, maxLength: number): string | undefined {
    const v = obj[key];
    return v === undefined ? undefined : this.asString(v, join(path, key), maxLength);
  }

  asString(v: unknown, path: string, maxLength: number): string {
    if (typeof v !== 'string') this.invalid(path, 'a string', v);
    if (v.length > maxLength) this.invalid(path, `a string of at most ${maxLength} characters`, v);
    return v;
  }

  /** A finite number ≥ 0 (times in ms, epoch ms). */
  optionalTime(obj: Fields, key: string, path: string): number | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) this.invalid(join(path, key), 'a finite number ≥ 0', v);
    return v;
  }

  optionalBoolean(obj: Fields, key: string, path: string): boolean | undefined {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') this.invalid(join(path, key), 'true or false', v);
    return v;
  }

  /** A non-negative integer. */
  count(obj: Fields, key: string, path: string): number {
    const v = this.required(obj, key, path);
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) this.invalid(join(path, key), 'an integer ≥ 0', v);
    return v;
  }

  oneOf<T extends string>(obj: Fields, key: string, path: string, allowed: readonly T[]): T {
    return this.asOneOf(this.required(obj, key, path), join(path, key), allowed);
  }

  optionalOneOf<T extends string>(obj: Fields, key: string, path: string, allowed: readonly T[]): T | undefined {
    const v = obj[key];
    return v === undefined ? undefined : this.asOneOf(v, join(path, key), allowed);
  }

  asOneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) this.invalid(path, `one of ${allowed.join(', ')}`, v);
    return v as T;
  }

  array(obj: Fields, key: string, path: string): unknown[] {
    const v = this.required(obj, key, path);
    if (!Array.isArray(v)) this.invalid(join(path, key), 'an array', v);
    return v;
  }

  object(v: unknown, path: string): Fields {
    if (!isPlainObject(v)) this.invalid(path, 'an object', v);
    return v;
  }
}
