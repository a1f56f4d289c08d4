import { ApiKeyCache } from './api-key-cache';

const TTL = 5000;

function cacheAt(start = 1000) {
  const clock = { now: start };
  const cache = new ApiKeyCache<string>(TTL, () => clock.now);
  cache.listenerUp();
  return { clock, cache };
}

describe('ApiKeyCache', () => {
  it('keeps a found key until the TTL, counted from when its look-up began', () => {
    const { clock, cache } = cacheAt();
    const ticket = cache.ticket();
    clock.now += 40;
    cache.put(ticket, 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBe('principal-1');
    clock.now = 1000 + TTL - 1;
    expect(cache.get('hash-1')).toBe('principal-1');
    clock.now = 1000 + TTL;
    expect(cache.get('hash-1')).toBeUndefined();
    // Gone, not merely hidden: the clock going back (it cannot, being monotonic) would not revive it.
    clock.now = 1000;
    expect(cache.get('hash-1')).toBeUndefined();
  });

  it('drops every entry of a revoked key and keeps the others', () => {
    const { cache } = cacheAt();
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    cache.put(cache.ticket(), 'hash-2', 'key-2', 'principal-2');
    cache.revoked('key-1');
    expect(cache.get('hash-1')).toBeUndefined();
    expect(cache.get('hash-2')).toBe('principal-2');
  });

  it('does not keep a look-up that began before a revocation was heard: its row may predate the revocation', () => {
    const { cache } = cacheAt();
    const ticket = cache.ticket();
    cache.revoked('key-1');
    cache.put(ticket, 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();
    // Any revocation counts, not only the key's own: the notification names an id, the read a hash.
    const other = cache.ticket();
    cache.revoked('key-9');
    cache.put(other, 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBe('principal-1');
  });

  it('keeps nothing before the listener is up', () => {
    const cache = new ApiKeyCache<string>(TTL, () => 0);
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();
  });

  it('clears on a lost listener and keeps nothing until it is up again', () => {
    const { cache } = cacheAt();
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    cache.listenerDown();
    expect(cache.get('hash-1')).toBeUndefined();
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();

    // A look-up that began while deaf read a row that a revocation nobody heard may have changed since.
    const duringOutage = cache.ticket();
    cache.listenerUp();
    cache.put(duringOutage, 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();
    cache.put(cache.ticket(), 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBe('principal-1');
  });

  it('does not keep a look-up that began before the listener was lost, even once it is back', () => {
    const { cache } = cacheAt();
    const ticket = cache.ticket();
    cache.listenerDown();
    cache.listenerUp();
    cache.put(ticket, 'hash-1', 'key-1', 'principal-1');
    expect(cache.get('hash-1')).toBeUndefined();
  });
});
