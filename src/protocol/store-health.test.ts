import { parseHostMessage } from './validate-reply';
import { storeHealthText } from './store-health';
import { PROTOCOL_VERSION } from './version';

test('the UI line: nothing when all is well, "store full: N records not saved" counting waiting and dropped', () => {
  expect(storeHealthText(undefined)).toBeUndefined();
  expect(storeHealthText({ state: 'ok', pending: 12, dropped: 0 })).toBeUndefined();
  expect(storeHealthText({ state: 'full', pending: 1, dropped: 0 })).toBe('store full: 1 record not saved');
  expect(storeHealthText({ state: 'full', pending: 50_000, dropped: 1234 })).toBe('store full: 51,234 records not saved');
  expect(storeHealthText({ state: 'failing', pending: 3, dropped: 0, error: { code: 'E_STORE_WRITE', message: 'EACCES' } })).toBe('store failing: 3 records not saved (E_STORE_WRITE)');
  expect(storeHealthText({ state: 'ok', pending: 0, dropped: 7 })).toBe('store: 7 records lost while the disk was full');
});

test('replies carrying storeHealth are checked: a bad one is E_INVALID_FIELD naming the path', () => {
  const stats = { type: 'stats', id: 's', count: 0, groups: [] };
  expect(parseHostMessage({ ...stats, storeHealth: { state: 'full', pending: 2, dropped: 0, error: { code: 'E_STORE_FULL', message: 'no space' } } })).toBeTruthy();
  expect(() => parseHostMessage({ ...stats, storeHealth: { state: 'jammed', pending: 2, dropped: 0 } })).toThrow(/storeHealth\.state: expected one of ok, full, failing/);
  expect(() => parseHostMessage({ ...stats, storeHealth: { state: 'ok', pending: -1, dropped: 0 } })).toThrow(/storeHealth\.pending: expected an integer ≥ 0/);
  const hello = { type: 'hello', id: 'h', hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, capabilities: { strategies: [], http2: true, store: '/s', maxRequestsPerSchedule: 1, maxMessageBytes: 1, storeHealth: { state: 'ok', pending: 0 } } };
  expect(() => parseHostMessage(hello)).toThrow(/capabilities\.storeHealth\.dropped: required field is missing/);
});
