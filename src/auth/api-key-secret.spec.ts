import { createHash } from 'node:crypto';
import { ISSUED_KEY_FORMAT, generateApiKey, hashApiKey, newApiKeyId, randomBase62 } from './api-key-secret';

describe('API key secrets', () => {
  it.each([['merchant'], ['auditor'], ['admin']] as const)('gives a %s key svc_ and 32 base62 characters', (role) => {
    expect(generateApiKey(role)).toMatch(/^svc_[0-9A-Za-z]{32}$/);
  });

  it('gives a partner key svc_partner_ and 32 base62 characters', () => {
    expect(generateApiKey('partner')).toMatch(/^svc_partner_[0-9A-Za-z]{32}$/);
  });

  it('accepts exactly the issued formats', () => {
    expect(generateApiKey('merchant')).toMatch(ISSUED_KEY_FORMAT);
    expect(generateApiKey('partner')).toMatch(ISSUED_KEY_FORMAT);
    for (const other of ['svc_short', `svc_${'a'.repeat(33)}`, `svc_${'-'.repeat(32)}`, `key_${'a'.repeat(32)}`]) {
      expect(other).not.toMatch(ISSUED_KEY_FORMAT);
    }
  });

  it('never repeats a key and uses every base62 character', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey('merchant'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map((key) => key.slice('svc_'.length)).join('')).size).toBe(62);
  });

  it('spreads characters evenly (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(620_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 10,000 expected per character; a bias of 256 % 62 would put four of them near 12,900.
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });

  it('hashes with SHA-256 in lowercase hex', () => {
    expect(hashApiKey('svc_abc')).toBe(createHash('sha256').update('svc_abc').digest('hex'));
    expect(hashApiKey('svc_abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes key ids that are not keys', () => {
    expect(newApiKeyId()).toMatch(/^key_[0-9A-Za-z]{20}$/);
  });
});
