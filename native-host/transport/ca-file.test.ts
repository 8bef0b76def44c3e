import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testCert } from '../../test/support/tls-cert';
import { readCaFile } from './ca-file';

describe('readCaFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'getlist-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a PEM certificate is returned as text', () => {
    const file = path.join(dir, 'ca.pem');
    writeFileSync(file, testCert().cert);
    expect(readCaFile(file)).toBe(testCert().cert);
  });

  test.each([
    ['a missing file', () => path.join(dir, 'missing.pem'), /cannot read it \(no such file\)/],
    ['a directory', () => dir, /cannot read it \((it is a directory|EISDIR)\)/],
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
  ])('%s is E_CA_FILE naming the file and the fix', (_what, make, message) => {
    const file = make();
    expect(() => readCaFile(file)).toThrow(expect.objectContaining({ code: 'E_CA_FILE', message: expect.stringMatching(message) }));
    expect(() => readCaFile(file)).toThrow(expect.objectContaining({ message: expect.stringContaining(file) }));
  });

  test('an oversized file is refused without being parsed', () => {
    expect(() => readCaFile('/x.pem', () => Buffer.alloc(5 * 1024 * 1024))).toThrow(expect.objectContaining({ code: 'E_CA_FILE', message: expect.stringMatching(/more than a CA bundle/) }));
  });
});
