import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testCert } from '../../test/support/tls-cert';
import { MAX_CA_BYTES, readCaFile } from './ca-file';

describe('readCaFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'getlist-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a PEM certificate is returned as text', async () => {
    const file = path.join(dir, 'ca.pem');
    writeFileSync(file, testCert().cert);
    expect(await readCaFile(file)).toBe(testCert().cert);
  });

  test('a PEM bundle of exactly the cap is read', async () => {
    const file = path.join(dir, 'at-cap.pem');
    const cert = testCert().cert;
    writeFileSync(file, cert + '\n'.repeat(MAX_CA_BYTES - Buffer.byteLength(cert)));
    expect(await readCaFile(file)).toHaveLength(MAX_CA_BYTES);
  });

  test.each([
    ['a missing file', () => path.join(dir, 'missing.pem'), /: cannot open it \(no such file\); give the path of a PEM file/],
    ['a directory', () => dir, /: it is a directory, not a regular file; give the path of a PEM file/],
    ['/dev/zero', () => '/dev/zero', /: it is a character device, not a regular file; give the path of a PEM file/],
    ['a sparse file over the cap', () => {
      const file = path.join(dir, 'huge.pem');
      writeFileSync(file, '');
      truncateSync(file, MAX_CA_BYTES + 1);
      return file;
    }, new RegExp(`: it holds ${MAX_CA_BYTES + 1} bytes, more than the ${MAX_CA_BYTES} bytes allowed; a CA bundle is far smaller`)],
    ['a key, not a certificate', () => {
      const file = path.join(dir, 'key.pem');
      writeFileSync(file, testCert().key);
      return file;
    }, /no PEM certificate in it .*openssl x509 -inform der/],
    ['DER bytes', () => {
      const file = path.join(dir, 'ca.der');
      writeFileSync(file, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
      return file;
    }, /no PEM certificate/],
  ])('%s is E_CA_FILE naming the file and the fix', async (_what, make, message) => {
    const file = make();
    await expect(readCaFile(file)).rejects.toMatchObject({ code: 'E_CA_FILE', message: expect.stringMatching(message) });
    await expect(readCaFile(file)).rejects.toMatchObject({ message: expect.stringContaining(`CA file ${file}: `) });
  });
});
