import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVariant, parseVariant } from '../../bench/overhead/overhead-variants';

interface ManifestPermissions {
  permissions: string[];
  optional_permissions?: string[];
}
const manifestOf = (dir: string): ManifestPermissions => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestPermissions;
const source = manifestOf(join(__dirname, '..', '..'));

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

  it('the detailed variant is built holding them from install, and keeps the rest', () => {
    const build = buildVariant(parseVariant('detailed'));
    try {
      const got = manifestOf(build.dir);
      expect(got.permissions).toEqual([...source.permissions, ...(source.optional_permissions ?? [])]);
      expect(got.optional_permissions).toBeUndefined();
    } finally {
      build.remove();
    }
  }, 60_000);
});
