import { SchedulerError } from './errors';

/** Any part of `T`, at any depth; a `Policy | false` field takes a part of the policy, or `false`. */
export type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `base` with `overrides` applied, as a fresh deep copy (no object of `base` is shared with the
 * result). Field by field: `undefined` keeps the base; an object merges into the base's object,
 * or, where the base is `false` (a policy that is off), into `turnedOn[path]` (the policy's
 * defaults), which turns it on; anything else replaces. A field the base does not have is refused
 * with `E_INVALID_OPTION` naming its path and the fields there are (`where`: the message's
 * subject), as is an object where the base holds a plain value.
 */
export function applyOverrides(base: object, overrides: unknown, turnedOn: Readonly<Record<string, object>>, where: string): object {
  return merge(base, overrides, '', turnedOn, where) as object;
}

function merge(base: unknown, override: unknown, path: string, turnedOn: Readonly<Record<string, object>>, where: string): unknown {
  if (override === undefined) return isPlain(base) ? merge(base, {}, path, turnedOn, where) : base;
  const policy = isPlain(base) || turnedOn[path] !== undefined;
  if (!isPlain(override)) {
    // A policy is an object, or `false` where it can be off; a plain setting keeps its type.
    const fits = policy ? override === false && turnedOn[path] !== undefined : typeof override === typeof base;
    if (!fits) throw new SchedulerError('E_INVALID_OPTION', `${where}: ${path} must be ${expected(base, turnedOn[path] !== undefined)}, got ${describe(override)}`);
    return override;
  }
  const start = isPlain(base) ? base : (turnedOn[path] as Plain | undefined);
  if (start === undefined) throw new SchedulerError('E_INVALID_OPTION', `${where}: ${path} must be ${expected(base, false)}, got an object`);
  const out: Plain = {};
  for (const key of Object.keys(start)) out[key] = merge(start[key], override[key], join(path, key), turnedOn, where);
  for (const key of Object.keys(override)) {
    // `name` is the preset's, never a setting.
    if (!(key in start) || (path === '' && key === 'name')) {
      throw new SchedulerError('E_INVALID_OPTION', `${where}: ${join(path, key)} is not a setting; expected one of ${Object.keys(start).filter((k) => k !== 'name').map((k) => join(path, k)).join(', ')}`);
    }
  }
  return out;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function expected(base: unknown, canBeOff: boolean): string {
  if (isPlain(base) || canBeOff) return canBeOff ? 'an object (its settings) or false (off)' : 'an object (its settings)';
  return `a ${typeof base}`;
}

function describe(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}
