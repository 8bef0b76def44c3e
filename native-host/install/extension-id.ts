import { createHash, createPublicKey } from 'node:crypto';
import { InstallError } from './install-error';

/** A Chrome extension id: 32 letters from a to p. */
const EXTENSION_ID = /^[a-p]{32}$/;

export function isExtensionId(s: string): boolean {
  return EXTENSION_ID.test(s);
}

/**
 * Chrome's extension id for a public key: the first 128 bits of SHA-256 over the key's DER
 * (SubjectPublicKeyInfo) bytes, written as 32 hex digits with 0–f mapped to a–p
 * (Chromium `crx_file::id_util::GenerateId`). An unpacked extension whose manifest carries the
 * key as `"key"` gets this id on every machine, which is what lets the host manifest name it.
 */
export function extensionIdFromDer(der: Uint8Array): string {
  const hex = createHash('sha256').update(der).digest('hex').slice(0, 32);
  let id = '';
  for (const digit of hex) id += String.fromCharCode(0x61 + parseInt(digit, 16));
  return id;
}

/**
 * The id for a manifest `"key"` (base64 SPKI DER). Throws `E_EXTENSION_MANIFEST` when the text
 * is not base64 of a public key Node can parse, since Chrome would refuse such a manifest too.
 */
export function extensionIdFromKey(base64Key: string): string {
  const compact = base64Key.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw new InstallError('E_EXTENSION_MANIFEST', 'manifest.json "key" is not base64');
  }
  const der = Buffer.from(compact, 'base64');
  try {
    createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch (err) {
    throw new InstallError('E_EXTENSION_MANIFEST', `manifest.json "key" is not a DER SubjectPublicKeyInfo public key (${(err as Error).message})`);
  }
  return extensionIdFromDer(der);
}
