import { checkUrl, refusedAddress } from './webhook-url';

const NO_HOST_ADDRESSES = new Set<string>();

describe('the webhook address check (SSRF): global unicast addresses of other hosts only', () => {
  it.each([
    ['0.1.2.3', 'unspecified'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.2', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.175.48.1', 'as112'],
    ['192.52.193.1', 'amt'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::808:808', 'rfc6052'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['100::1', 'discard'],
    ['2001::1', 'teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'reserved'],
    ['2002:808:808::1', '6to4'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'segmentRouting'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.0.2.1', 'reserved'],
    ['::ffff:0:808:808', 'rfc6145'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address, NO_HOST_ADDRESSES)).toBe(`${address}, a special-purpose address (${range})`);
  });

  it.each(['::7f00:1', '::8.8.8.8', '4000::1', 'c000::1'])(
    'refuses %s, outside the IPv6 global unicast block (IPv4-compatible, unallocated)',
    (address) => {
      expect(refusedAddress(address, NO_HOST_ADDRESSES)).toMatch(/special-purpose address/);
    },
  );

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'lets %s through',
    (address) => {
      expect(refusedAddress(address, NO_HOST_ADDRESSES)).toBeUndefined();
    },
  );

  it('refuses an address of the host itself, public or not, in any of its forms', () => {
    const host = new Set(['93.184.216.34', '2606:4700:4700:0:0:0:0:1111']);
    expect(refusedAddress('93.184.216.34', host)).toBe('93.184.216.34, an address of this host');
    expect(refusedAddress('::ffff:93.184.216.34', host)).toBe('::ffff:93.184.216.34, an address of this host');
    expect(refusedAddress('2606:4700:4700::1111', host)).toBe('2606:4700:4700::1111, an address of this host');
    expect(refusedAddress('8.8.8.8', host)).toBeUndefined();
  });

  it('refuses what is not an IP address', () => {
    expect(refusedAddress('example.com', NO_HOST_ADDRESSES)).toBe('example.com, which is not a global IP address');
    expect(refusedAddress('fe80::1%eth0', NO_HOST_ADDRESSES)).toBe('fe80::1%eth0, which is not a global IP address');
  });
});

describe('the webhook URL check', () => {
  it('says why a URL is refused, and gives the checked address to connect to', async () => {
    expect(await checkUrl('http://169.254.169.254/latest/meta-data/', false)).toEqual({
      refused:
        'names an address webhooks may not reach (169.254.169.254 is 169.254.169.254, a special-purpose address (linkLocal)); only global unicast addresses of other hosts are allowed, unless WEBHOOK_ALLOW_PRIVATE=true (development)',
    });
    expect(await checkUrl('gopher://93.184.216.34/', false)).toEqual({ refused: 'must be an http or https URL' });
    expect(await checkUrl('https://user:secret@93.184.216.34/', false)).toEqual({
      refused: 'must not carry a user name or password',
    });
    expect(await checkUrl('not a url', false)).toEqual({ refused: 'is not a URL' });
    expect(await checkUrl('https://93.184.216.34/hooks', false)).toEqual({
      address: { address: '93.184.216.34', family: 4 },
    });
    expect(await checkUrl('http://[2606:4700:4700::1111]/hooks', false)).toEqual({
      address: { address: '2606:4700:4700::1111', family: 6 },
    });
    expect(await checkUrl('http://127.0.0.1:8080/hooks', true)).toEqual({ address: undefined });
  });
});
