import { CodedError } from '../../core/coded-error';
import { isAbsolutePath, MAX_CA_PATH_LENGTH } from '../../protocol/ca-file-path';
import { HostMappingError, MAX_HOST_MAPPINGS, MAX_HOST_MAPPING_LENGTH, parseResolve } from '../../targets/host-mapping';
import { STRATEGY_NAMES, isStrategyName } from '../../scheduler/strategies';
import { DEFAULT_SETTINGS, type Settings } from './messages';
import { EAGERNESS, type Eagerness } from '../speculation/speculation-settings';

/**
 * Validation of the user's settings: at the UI boundary (`set-settings`, which must be exact) and
 * when reading storage (which may hold anything an older or corrupted build wrote, so it falls
 * back to the default field by field instead of failing).
 */

/** Longest excluded-site entry (a hostname is at most 253 characters; `*.` adds two). */
const MAX_SITE_LENGTH = 255;
/** Excluded-site entries at most. */
const MAX_SITES = 1000;

export class SettingsError extends CodedError<'E_INVALID_SETTINGS'> {
  override readonly name = 'SettingsError';
  constructor(message: string) {
    super('E_INVALID_SETTINGS', message);
  }
}

/**
 * Checks a partial update from the UI; returns only the known fields, validated.
 * @throws SettingsError naming the field, what was expected and what arrived.
 */
export function parseSettingsPatch(value: unknown): Partial<Settings> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SettingsError(`settings: expected an object, got ${kind(value)}`);
  const v = value as Record<string, unknown>;
  const out: Partial<Settings> = {};
  if (v.autoReplay !== undefined) {
    if (typeof v.autoReplay !== 'boolean') throw new SettingsError(`autoReplay: expected true or false, got ${kind(v.autoReplay)}`);
    out.autoReplay = v.autoReplay;
  }
  if (v.replayStrategies !== undefined) out.replayStrategies = parseStrategies(v.replayStrategies, 'replayStrategies');
  if (v.excludedSites !== undefined) out.excludedSites = parseSites(v.excludedSites, 'excludedSites');
  if (v.hints !== undefined) {
    if (typeof v.hints !== 'boolean') throw new SettingsError(`hints: expected true or false, got ${kind(v.hints)}`);
    out.hints = v.hints;
  }
  if (v.caFile !== undefined) {
    const p = typeof v.caFile === 'string' ? v.caFile.trim() : v.caFile;
    if (typeof p !== 'string' || p.length > MAX_CA_PATH_LENGTH || (p !== '' && !isAbsolutePath(p))) {
      throw new SettingsError(`caFile: expected an absolute path to a PEM file (or nothing), got ${kind(v.caFile)}`);
    }
    out.caFile = p;
  }
  if (v.hintsDisabledSites !== undefined) out.hintsDisabledSites = parseSites(v.hintsDisabledSites, 'hintsDisabledSites');
  if (v.allowPrivateNetwork !== undefined) {
    if (typeof v.allowPrivateNetwork !== 'boolean') throw new SettingsError(`allowPrivateNetwork: expected true or false, got ${kind(v.allowPrivateNetwork)}`);
    out.allowPrivateNetwork = v.allowPrivateNetwork;
  }
  if (v.hostMappings !== undefined) out.hostMappings = parseHostMappings(v.hostMappings);
  for (const key of ['speculation', 'prerender'] as const) {
    if (v[key] === undefined) continue;
    if (typeof v[key] !== 'boolean') throw new SettingsError(`${key}: expected true or false, got ${kind(v[key])}`);
    out[key] = v[key];
  }
  if (v.eagerness !== undefined) {
    if (!(EAGERNESS as readonly unknown[]).includes(v.eagerness)) throw new SettingsError(`eagerness: expected one of ${EAGERNESS.join(', ')}, got ${kind(v.eagerness)}`);
    out.eagerness = v.eagerness as Eagerness;
  }
  if (v.speculationDisabledSites !== undefined) out.speculationDisabledSites = parseSites(v.speculationDisabledSites, 'speculationDisabledSites');
  if (v.retentionDays !== undefined) {
    const d = v.retentionDays;
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 3650) throw new SettingsError(`retentionDays: expected an integer from 1 to 3650, got ${kind(d)}`);
    out.retentionDays = d;
  }
  return out;
}

function parseSites(sites: unknown, path: string): string[] {
  if (!Array.isArray(sites) || sites.length > MAX_SITES) throw new SettingsError(`${path}: expected an array of at most ${MAX_SITES} strings, got ${kind(sites)}`);
  return sites.map((s, i) => {
    if (typeof s !== 'string' || s.length > MAX_SITE_LENGTH) throw new SettingsError(`${path}[${i}]: expected a hostname or *.suffix of at most ${MAX_SITE_LENGTH} characters, got ${kind(s)}`);
    return s.trim();
  }).filter((s) => s !== '');
}

/** `HOST:PORT:ADDRESS` lines (curl `--resolve`), trimmed, blank lines dropped; the host's own parser decides. */
function parseHostMappings(lines: unknown): string[] {
  if (!Array.isArray(lines)) throw new SettingsError(`hostMappings: expected an array of HOST:PORT:ADDRESS strings, got ${kind(lines)}`);
  const out = lines.map((line, i) => {
    if (typeof line !== 'string' || line.length > MAX_HOST_MAPPING_LENGTH) throw new SettingsError(`hostMappings[${i}]: expected a HOST:PORT:ADDRESS string of at most ${MAX_HOST_MAPPING_LENGTH} characters, got ${kind(line)}`);
    const trimmed = line.trim();
    if (trimmed !== '') {
      try {
        parseResolve(trimmed);
      } catch (err) {
        if (err instanceof HostMappingError) throw new SettingsError(`hostMappings[${i}]: expected HOST:PORT:ADDRESS with an IP address, e.g. myapp.test:443:127.0.0.1, got ${kind(line)}`);
        throw err;
      }
    }
    return trimmed;
  }).filter((l) => l !== '');
  if (out.length > MAX_HOST_MAPPINGS) throw new SettingsError(`hostMappings: at most ${MAX_HOST_MAPPINGS} lines, got ${out.length}`);
  return out;
}

/**
 * Strategy names for a replay: a non-empty subset of the known ones, duplicates removed.
 * @throws SettingsError
 */
export function parseStrategies(value: unknown, path = 'strategies'): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new SettingsError(`${path}: expected a non-empty array of strategy names, got ${kind(value)}`);
  value.forEach((s, i) => {
    if (!isStrategyName(s)) throw new SettingsError(`${path}[${i}]: expected one of ${STRATEGY_NAMES.join(', ')}, got ${kind(s)}`);
  });
  return [...new Set(value as string[])];
}

/** Settings as stored, made whole: every field that is missing or invalid takes its default. */
export function settingsFromStorage(stored: unknown): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS, replayStrategies: [...DEFAULT_SETTINGS.replayStrategies], excludedSites: [], hintsDisabledSites: [], hostMappings: [], speculationDisabledSites: [] };
  if (typeof stored !== 'object' || stored === null) return settings;
  for (const [key, value] of Object.entries(stored)) {
    try {
      Object.assign(settings, parseSettingsPatch({ [key]: value }));
    } catch {
      // keep the default for this field
    }
  }
  return settings;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
