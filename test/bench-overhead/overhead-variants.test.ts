import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVariant, parseVariant } from '../../bench/overhead/overhead-variants';

const permissionsOf = (dir: string): string[] => (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { permissions: string[] }).permissions;
const sourceManifest = permissionsOf(join(__dirname, '..', '..'));

describe('overhead bench variants', () => {
  it('names what was asked; switches off what that needs off too', () => {
    expect(parseVariant('full')).toEqual({ name: 'full', off: [] });
    expect(parseVariant('webrequest+headers')).toEqual({ name: 'webrequest+headers', off: ['webrequest', 'headers'] });
    const p = parseVariant('permissions+storage');
    expect(p.name).toBe('permissions+storage');
    expect([...p.off].sort()).toEqual(['headers', 'hints', 'permissions', 'storage', 'webrequest']);
    expect(parseVariant('none').noExtension).toBe(true);
  });

  it('an unknown piece is a usage error naming the known ones', () => {
    expect(() => parseVariant('webrequest+dns')).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringContaining('permissions') }));
  });

  it('the permissions variant is built without the webRequest and DNR permissions, and keeps the rest', () => {
    // The source manifest holds them: otherwise this test proves nothing.
    expect(sourceManifest).toEqual(expect.arrayContaining(['webRequest', 'declarativeNetRequestWithHostAccess', 'webNavigation', 'nativeMessaging']));
    const build = buildVariant(parseVariant('permissions'));
    try {
      const got = permissionsOf(build.dir);
      expect(got).toEqual(sourceManifest.filter((x) => x !== 'webRequest' && !x.startsWith('declarativeNetRequest')));
      expect(got.length).toBe(sourceManifest.length - 2);
      // The background bundle knows the pieces the permission's absence needs off (it may add no listener).
      const bundle = readFileSync(join(build.dir, 'background.js'), 'utf8');
      const lists = [...bundle.matchAll(/"((?:webrequest|headers|hints|permissions)(?:,(?:webrequest|headers|hints|permissions))+)"/g)].map((m) => m[1] as string);
      expect(lists).toHaveLength(1);
      const off = lists[0]?.split(',') ?? [];
      expect(off.sort()).toEqual(['headers', 'hints', 'permissions', 'webrequest']);
    } finally {
      build.remove();
    }
  }, 60_000);
});
