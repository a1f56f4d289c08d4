import { isPrivateAddress, refusedUrl } from './webhook-url';

describe('the webhook URL check (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'lets %s through',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it('says why a URL is refused, and lets a public address through (no name to resolve)', async () => {
    expect(await refusedUrl('http://169.254.169.254/latest/meta-data/', false)).toBe(
      'names a loopback, private, link-local or metadata address (169.254.169.254 is 169.254.169.254); set WEBHOOK_ALLOW_PRIVATE=true for development',
    );
    expect(await refusedUrl('gopher://93.184.216.34/', false)).toBe('must be an http or https URL');
    expect(await refusedUrl('https://user:secret@93.184.216.34/', false)).toBe(
      'must not carry a user name or password',
    );
    expect(await refusedUrl('not a url', false)).toBe('is not a URL');
    expect(await refusedUrl('https://93.184.216.34/hooks', false)).toBeUndefined();
    expect(await refusedUrl('http://127.0.0.1:8080/hooks', true)).toBeUndefined();
  });
});
