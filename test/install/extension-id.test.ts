import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { extensionIdFromDer, extensionIdFromKey, isExtensionId } from '../../native-host/install/extension-id';
import { readExtensionIdentity } from '../../native-host/install/extension-identity';
import { tempDir, REPO } from './support';
import path from 'node:path';

/** An independent spelling of the algorithm: hex digit n → the letter n places after 'a'. */
function reference(der: Buffer): string {
  const hex = createHash('sha256').update(der).digest('hex').slice(0, 32);
  return hex.replace(/[0-9a-f]/g, (h) => 'abcdefghijklmnop'.charAt(parseInt(h, 16)));
}

describe('Chrome extension id', () => {
  test('maps the first 128 bits of SHA-256 to letters a–p (FIPS 180-2 vector for "abc")', () => {
    // sha256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 …
    expect(extensionIdFromDer(Buffer.from('abc'))).toBe('lkhibglpipabmpokebebeanofnkocccd');
  });

  test("gives Chrome's own id for a key Chrome ships (the PDF viewer: mhjfbmdgcfjbbpaeojofohoefgiehjai)", () => {
    const pdfViewerKey =
      'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDN6hM0rsDYGbzQPQfOygqlRtQgKUXMfnSjhIBL7LnReAVBEd7ZmKtyN2qmSasMl4HZpMhVe2rPWVVwBDl6iyNE/Kok6E6v6V3vCLGsOpQAuuNVye/3QxzIldzG/jQAdWZiyXReRVapOhZtLjGfywCvlWq7Sl/e3sbc0vWybSDI2QIDAQAB';
    expect(extensionIdFromKey(pdfViewerKey)).toBe('mhjfbmdgcfjbbpaeojofohoefgiehjai');
  });

  test('a freshly generated RSA-2048 key gets the id the reference computes', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const der = publicKey.export({ type: 'spki', format: 'der' });
    const id = extensionIdFromKey(der.toString('base64'));
    expect(id).toBe(reference(der));
    expect(isExtensionId(id)).toBe(true);
  });

  test.each([
    ['not base64 at all!'],
    [Buffer.from('just some bytes, not a key').toString('base64')],
  ])('rejects a key that is not a DER public key: %s', (key) => {
    expect(() => extensionIdFromKey(key)).toThrow(expect.objectContaining({ code: 'E_EXTENSION_MANIFEST' }));
  });

  test.each([
    ['abcdefghijklmnopabcdefghijklmnop', true],
    ['abcdefghijklmnopabcdefghijklmnoq', false],
    ['abcdefghijklmnopabcdefghijklmno', false],
    ['ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP', false],
  ])('isExtensionId(%s) is %s', (s, ok) => {
    expect(isExtensionId(s)).toBe(ok);
  });
});

describe('manifest.json identity', () => {
  test('the repository manifest pins the Chrome id with a public key and names the gecko id', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'manifest.json'), 'utf8'));
    const ids = readExtensionIdentity(REPO, { fs, platform: 'linux' });
    expect(ids.chromeId).toBe(reference(Buffer.from(manifest.key, 'base64')));
    // Changing the key changes the id users' host manifests admit: do it only on purpose.
    expect(ids.chromeId).toBe('kelbbeopokdfcgnhndalcnpcofnpkfln');
    expect(ids.geckoId).toBe('getlist@getlist.dev');
    expect(manifest.browser_specific_settings.gecko.id).toBe(ids.geckoId);
  });

  test('the repository holds no private key', () => {
    const text = fs.readFileSync(path.join(REPO, 'manifest.json'), 'utf8');
    expect(text).not.toMatch(/PRIVATE KEY/);
  });

  test.each([
    ['{}', /no "key"/],
    ['{"key": "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDN6hM0rsDYGbzQPQfOygqlRtQgKUXMfnSjhIBL7LnReAVBEd7ZmKtyN2qmSasMl4HZpMhVe2rPWVVwBDl6iyNE/Kok6E6v6V3vCLGsOpQAuuNVye/3QxzIldzG/jQAdWZiyXReRVapOhZtLjGfywCvlWq7Sl/e3sbc0vWybSDI2QIDAQAB"}', /gecko\.id/],
    ['{ nope', /cannot read/],
  ])('a manifest.json %s fails with E_EXTENSION_MANIFEST', (text, message) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'manifest.json'), text);
    expect(() => readExtensionIdentity(dir, { fs, platform: 'linux' })).toThrow(expect.objectContaining({ code: 'E_EXTENSION_MANIFEST', message: expect.stringMatching(message) }));
  });
});
