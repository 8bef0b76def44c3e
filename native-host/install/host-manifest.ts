import { isChromiumFamily, type Browser } from './browser-name';
import { pathFor, type Platform } from './system';

/** The native messaging host name: lowercase alphanumerics, dots and underscores. */
export const HOST_NAME = 'dev.getlist.host';
export const HOST_DESCRIPTION = 'getlist: browser-side HTTP connection scheduler (native host)';

interface ManifestBase {
  name: string;
  description: string;
  /** Absolute path of the launcher the browser executes. */
  path: string;
  type: 'stdio';
}
export interface ChromeHostManifest extends ManifestBase {
  allowed_origins: string[];
}
export interface FirefoxHostManifest extends ManifestBase {
  allowed_extensions: string[];
}
export type HostManifest = ChromeHostManifest | FirefoxHostManifest;

/** Who the manifest must admit. */
export interface ManifestExpectation {
  chromeId: string;
  geckoId: string;
}

/** Chrome's origin for an extension id; the trailing slash is required in `allowed_origins`. */
export function chromeOrigin(extensionId: string): string {
  return `chrome-extension://${extensionId}/`;
}

export function buildHostManifest(browser: Browser, launcherPath: string, ids: ManifestExpectation): HostManifest {
  const base: ManifestBase = { name: HOST_NAME, description: HOST_DESCRIPTION, path: launcherPath, type: 'stdio' };
  return isChromiumFamily(browser) ? { ...base, allowed_origins: [chromeOrigin(ids.chromeId)] } : { ...base, allowed_extensions: [ids.geckoId] };
}

export function serializeHostManifest(m: HostManifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** Which part of a manifest a problem is about; the doctor groups its checks by this. */
export type ManifestField = 'json' | 'name' | 'type' | 'path' | 'allowed';

export interface ManifestProblem {
  field: ManifestField;
  message: string;
}

export type ParsedHostManifest =
  | { ok: true; manifest: HostManifest }
  | { ok: false; manifest?: Partial<HostManifest>; problems: ManifestProblem[] };

/**
 * Parses a host manifest as `browser` would read it and lists every way it falls short of what
 * getlist needs: valid JSON object, `name` = HOST_NAME, `type` = "stdio", an absolute `path`, and
 * the getlist extension admitted (`allowed_origins` for Chrome/Chromium, `allowed_extensions` for
 * Firefox). Only the file's text is checked here; whether `path` exists is the caller's business.
 */
export function parseHostManifest(text: string, browser: Browser, expect: ManifestExpectation, platform: Platform): ParsedHostManifest {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [{ field: 'json', message: `not valid JSON (${(err as Error).message})` }] };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, problems: [{ field: 'json', message: `expected a JSON object, got ${Array.isArray(doc) ? 'an array' : typeof doc}` }] };
  }
  const m = doc as Record<string, unknown>;
  const problems: ManifestProblem[] = [];
  if (m.name !== HOST_NAME) problems.push({ field: 'name', message: `"name" is ${JSON.stringify(m.name)}, expected "${HOST_NAME}"` });
  if (m.type !== 'stdio') problems.push({ field: 'type', message: `"type" is ${JSON.stringify(m.type)}, expected "stdio"` });
  if (typeof m.path !== 'string' || m.path === '') {
    problems.push({ field: 'path', message: `"path" is ${JSON.stringify(m.path)}, expected the launcher's absolute path` });
  } else if (!pathFor(platform).isAbsolute(m.path)) {
    problems.push({ field: 'path', message: `"path" ${JSON.stringify(m.path)} is not absolute (browsers resolve it against their own directory)` });
  }
  const allowed = allowedProblem(m, browser, expect);
  if (allowed) problems.push(allowed);
  if (problems.length > 0) return { ok: false, manifest: m as Partial<HostManifest>, problems };
  return { ok: true, manifest: m as unknown as HostManifest };
}

function allowedProblem(m: Record<string, unknown>, browser: Browser, expect: ManifestExpectation): ManifestProblem | undefined {
  const [key, want] = isChromiumFamily(browser) ? ['allowed_origins', chromeOrigin(expect.chromeId)] : ['allowed_extensions', expect.geckoId];
  const list = m[key];
  if (!Array.isArray(list)) return { field: 'allowed', message: `"${key}" is missing or not an array; it must list ${JSON.stringify(want)}` };
  if (list.includes(want)) return undefined;
  return { field: 'allowed', message: `"${key}" is ${JSON.stringify(list)}; it does not name this extension, ${JSON.stringify(want)}` };
}
