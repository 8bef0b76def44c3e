import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVariant, parseVariant } from '../../bench/overhead/overhead-variants';

interface ManifestPermissions {
  permissions: string[];
  optional_permissions?: string[];
}
const manifestOf = (dir: string): ManifestPermissions => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestPermissions;
const source = manifestOf(join(__dirname, '..', '..'));

/** The bundles that import extension/platform/bench-switches.ts. */
const BUNDLES = ['background.js', 'content-start.js', 'content.js'];
/** The switch constants a bundle still names (`*_OFF`), e.g. `STORAGE_OFF`. */
const switchesIn = (file: string): string[] => [...new Set(readFileSync(file, 'utf8').match(/\b[A-Z]+_OFF\b/g) ?? [])];

describe('overhead bench variants', () => {
  it('names what was asked: the shipped lean build, the detailed one, pieces off on either', () => {
    expect(parseVariant('lean')).toEqual({ name: 'lean', off: [] });
    expect(parseVariant('full')).toEqual({ name: 'lean', off: [] });
    expect(parseVariant('detailed')).toEqual({ name: 'detailed', off: [], detailed: true });
    expect(parseVariant('storage+measure')).toEqual({ name: 'storage+measure', off: ['storage', 'measure'] });
    expect(parseVariant('detailed:webrequest+headers')).toEqual({ name: 'detailed:webrequest+headers', off: ['webrequest', 'headers'], detailed: true });
    expect(parseVariant('none').noExtension).toBe(true);
  });

  it('an unknown piece, or a webRequest piece on the lean build, is a usage error saying what to write', () => {
    expect(() => parseVariant('storage+dns')).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('webrequest') }));
    expect(() => parseVariant('webrequest')).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('detailed:webrequest') }));
  });

  it('the shipped manifest holds webRequest and DNR as optional permissions only', () => {
    expect(source.permissions).toEqual(expect.arrayContaining(['webNavigation', 'nativeMessaging']));
    expect(source.permissions.filter((p) => p === 'webRequest' || p.startsWith('declarativeNetRequest'))).toEqual([]);
    expect(source.optional_permissions).toEqual(['webRequest', 'declarativeNetRequestWithHostAccess']);
  });

  it('the detailed variant is built holding them from install, and keeps the rest; like the shipped build it holds no switch', () => {
    const build = buildVariant(parseVariant('detailed'));
    try {
      const got = manifestOf(build.dir);
      expect(got.permissions).toEqual([...source.permissions, ...(source.optional_permissions ?? [])]);
      expect(got.optional_permissions).toBeUndefined();
      // With no piece off the switches fold to false and their code is dropped (extension/platform/bench-switches.ts).
      for (const file of BUNDLES) expect({ file, switches: switchesIn(join(build.dir, file)) }).toEqual({ file, switches: [] });
    } finally {
      build.remove();
    }
  }, 60_000);

  it('a variant with pieces off carries its switches, read from the one define', () => {
    const build = buildVariant(parseVariant('storage+discovery'));
    try {
      expect(switchesIn(join(build.dir, 'background.js'))).toEqual(expect.arrayContaining(['STORAGE_OFF', 'CONTENT_OFF']));
      expect(readFileSync(join(build.dir, 'content.js'), 'utf8')).toContain('"storage,discovery".split(",").includes("discovery")');
    } finally {
      build.remove();
    }
  }, 60_000);
});
