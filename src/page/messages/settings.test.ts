import { DEFAULT_SETTINGS } from './messages';
import { parseSettingsPatch, parseStrategies, settingsFromStorage } from './settings';
import { isExcludedSite } from '../model/site-rules';

describe('settings', () => {
  test('a patch keeps only known, valid fields', () => {
    expect(parseSettingsPatch({ autoReplay: true, retentionDays: 30, excludedSites: [' a.test ', ''], other: 1 })).toEqual({ autoReplay: true, retentionDays: 30, excludedSites: ['a.test'] });
  });

  test.each([
    [{ retentionDays: 0 }, /retentionDays: expected an integer from 1 to 3650, got 0/],
    [{ retentionDays: 3651 }, /retentionDays/],
    [{ replayStrategies: ['getlist', 'warp'] }, /replayStrategies\[1\]: expected one of http10, .*got "warp"/],
    [{ replayStrategies: [] }, /non-empty/],
    [{ excludedSites: [3] }, /excludedSites\[0\]/],
    [{ autoReplay: 'yes' }, /autoReplay/],
    [{ caFile: 'certs/ca.pem' }, /caFile: expected an absolute path to a PEM file \(or nothing\), got "certs\/ca.pem"/],
    [{ caFile: 3 }, /caFile/],
    [{ hints: 'on' }, /hints: expected true or false, got "on"/],
    [{ hintsDisabledSites: [null] }, /hintsDisabledSites\[0\]/],
    [{ hostMappings: ['myapp.test:443:localhost'] }, /hostMappings\[0\]: expected HOST:PORT:ADDRESS with an IP address, .*got "myapp.test:443:localhost"/],
    [{ hostMappings: ['a.test:80:127.0.0.1', 'a.test:99999:127.0.0.1'] }, /hostMappings\[1\]/],
    [{ hostMappings: 'a.test:80:127.0.0.1' }, /hostMappings: expected an array/],
    [{ hostMappings: Array.from({ length: 65 }, (_, i) => `h${i}.test:80:127.0.0.1`) }, /hostMappings: at most 64 lines, got 65/],
  ])('refuses %j', (patch, message) => {
    expect(() => parseSettingsPatch(patch)).toThrow(expect.objectContaining({ code: 'E_INVALID_SETTINGS', message: expect.stringMatching(message) }));
  });

  test('the CA file: an absolute path (POSIX or Windows), trimmed, or empty for none', () => {
    expect(parseSettingsPatch({ caFile: ' /home/u/rootCA.pem ' })).toEqual({ caFile: '/home/u/rootCA.pem' });
    expect(parseSettingsPatch({ caFile: 'C:\\certs\\ca.pem' })).toEqual({ caFile: 'C:\\certs\\ca.pem' });
    expect(parseSettingsPatch({ caFile: '' })).toEqual({ caFile: '' });
    expect(settingsFromStorage({ caFile: 'relative.pem' }).caFile).toBe('');
  });

  test('host mappings: curl --resolve lines, trimmed, blank lines dropped; invalid stored ones fall back to none', () => {
    expect(parseSettingsPatch({ hostMappings: [' myapp.test:443:127.0.0.1 ', '', '*:8080:[::1]'] })).toEqual({ hostMappings: ['myapp.test:443:127.0.0.1', '*:8080:[::1]'] });
    expect(settingsFromStorage({ hostMappings: ['nonsense'] }).hostMappings).toEqual([]);
    expect(DEFAULT_SETTINGS.hostMappings).toEqual([]);
  });

  test('stored settings fall back to defaults field by field', () => {
    expect(settingsFromStorage(undefined)).toEqual(DEFAULT_SETTINGS);
    // Hints are on by default: a site gets them once it has been visited often enough to have a list.
    expect(DEFAULT_SETTINGS.hints).toBe(true);
    expect(settingsFromStorage({ hints: false, hintsDisabledSites: ['a.test'] })).toEqual({ ...DEFAULT_SETTINGS, hints: false, hintsDisabledSites: ['a.test'] });
    expect(settingsFromStorage({ autoReplay: true, retentionDays: -5 })).toEqual({ ...DEFAULT_SETTINGS, autoReplay: true });
  });

  test('strategies are de-duplicated', () => {
    expect(parseStrategies(['h2', 'h2', 'serial'])).toEqual(['h2', 'serial']);
  });

  test('excluded sites: exact hostnames and *.suffix', () => {
    const sites = ['Example.com', '*.bank.test'];
    expect(isExcludedSite('https://example.com/x', sites)).toBe(true);
    expect(isExcludedSite('https://www.example.com/', sites)).toBe(false);
    expect(isExcludedSite('https://bank.test/', sites)).toBe(true);
    expect(isExcludedSite('https://my.bank.test./', sites)).toBe(true);
    expect(isExcludedSite('https://notbank.test/', sites)).toBe(false);
  });
});
