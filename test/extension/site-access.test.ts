import fs from 'node:fs';
import path from 'node:path';
import { checkSiteAccess, requestSiteAccess, type PermissionsLike } from '../../extension/ui/site-access';
import { grantsSiteAccess, SITE_ORIGINS } from '../../src/page/model/site-rules';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'manifest.json'), 'utf8')) as {
  host_permissions: string[];
  optional_host_permissions?: string[];
  content_scripts?: unknown;
};

function permissions(answer: () => Promise<boolean>): PermissionsLike & { asked: Array<{ origins: string[] }> } {
  const asked: Array<{ origins: string[] }> = [];
  return {
    asked,
    contains: (p) => (asked.push(p), answer()),
    request: (p) => (asked.push(p), answer()),
  };
}

describe('site access', () => {
  test('the pages check, the background filters and the manifest ask for the same origins', () => {
    expect(manifest.host_permissions).toEqual([...SITE_ORIGINS]);
    expect(manifest.optional_host_permissions).toBeUndefined();
    // No declared content script: any script at document_start costs every page load (early-recorder.ts).
    // content.js is injected after load (content-injection.ts), hints are pushed at commit (hint-push.ts),
    // and Detailed capture registers content-start.js for the same origins (early-recorder.test.ts).
    expect(manifest.content_scripts).toBeUndefined();
  });

  test('checkSiteAccess: granted, missing, and unknown when the browser throws (no false alarm)', async () => {
    const yes = permissions(async () => true);
    await expect(checkSiteAccess(yes)).resolves.toBe('granted');
    expect(yes.asked).toEqual([{ origins: ['http://*/*', 'https://*/*'] }]);
    await expect(checkSiteAccess(permissions(async () => false))).resolves.toBe('missing');
    await expect(checkSiteAccess(permissions(() => Promise.reject(new Error('no permissions API'))))).resolves.toBe('unknown');
  });

  test('requestSiteAccess asks for every site and never rejects', async () => {
    const yes = permissions(async () => true);
    await expect(requestSiteAccess(yes)).resolves.toEqual({ granted: true });
    expect(yes.asked).toEqual([{ origins: ['http://*/*', 'https://*/*'] }]);
    await expect(requestSiteAccess(permissions(async () => false))).resolves.toEqual({ granted: false });
    const outsideGesture = permissions(() => Promise.reject(new Error('permissions.request may only be called from a user input handler')));
    await expect(requestSiteAccess(outsideGesture)).resolves.toEqual({ granted: false, error: 'permissions.request may only be called from a user input handler' });
    const throwing: PermissionsLike = { contains: async () => true, request: () => { throw new TypeError('bad origins'); } };
    await expect(requestSiteAccess(throwing)).resolves.toEqual({ granted: false, error: 'bad origins' });
  });

  test('grantsSiteAccess: http(s) patterns and <all_urls> count; API permissions and other schemes do not', () => {
    expect(grantsSiteAccess(['http://*/*', 'https://*/*'])).toBe(true);
    expect(grantsSiteAccess(['https://a.test/*'])).toBe(true);
    expect(grantsSiteAccess(['<all_urls>'])).toBe(true);
    expect(grantsSiteAccess(['*://*/*'])).toBe(true);
    expect(grantsSiteAccess(['file:///*', 'moz-extension://x/*'])).toBe(false);
    expect(grantsSiteAccess([])).toBe(false);
    expect(grantsSiteAccess(undefined)).toBe(false);
  });
});
