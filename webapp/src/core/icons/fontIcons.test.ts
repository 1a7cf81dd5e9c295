import { describe, expect, it, vi } from 'vitest';
import { FontIconCache, fontIconName, readFontIcon } from './fontIcons';

const definition = (paths: string | string[]) => ({ icon: [512, 448, [], 'f000', paths] });

describe('font icons', () => {
  it('reads the size and paths of a definition', () => {
    expect(readFontIcon(definition('M0'))).toEqual({ width: 512, height: 448, paths: ['M0'] });
    expect(readFontIcon(definition(['M0', 'M1']))?.paths).toEqual(['M0', 'M1']);
    expect(readFontIcon(null)).toBeNull();
    expect(readFontIcon({ icon: [1, 2] })).toBeNull();
  });

  it('names only fa: icons', () => {
    expect(fontIconName('fa:arrow-right')).toBe('arrow-right');
    expect(fontIconName('file:http.svg')).toBeNull();
    expect(fontIconName(undefined)).toBeNull();
  });

  it('loads each name once and tells its readers when it arrives', async () => {
    const loader = vi.fn((name: string) => Promise.resolve(name === 'missing' ? null : definition(name)));
    const cache = new FontIconCache(loader);
    const heard = vi.fn();
    const other = vi.fn();
    cache.subscribe('pen', heard);
    cache.subscribe('at', other);
    expect(cache.get('pen')).toBeUndefined();
    await Promise.all([cache.load('pen'), cache.load('pen'), cache.load('missing')]);
    expect(loader).toHaveBeenCalledTimes(2);
    expect(cache.get('pen')?.paths).toEqual(['pen']);
    expect(cache.get('missing')).toBeNull();
    expect(heard).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();
    await cache.load('pen');
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('settles a failed load as no icon', async () => {
    const cache = new FontIconCache(() => Promise.reject(new Error('offline')));
    await cache.load('pen');
    expect(cache.get('pen')).toBeNull();
  });

  it('stops telling a reader that unsubscribed', async () => {
    const cache = new FontIconCache((name) => Promise.resolve(definition(name)));
    const heard = vi.fn();
    const off = cache.subscribe('pen', heard);
    off();
    await cache.load('pen');
    expect(heard).not.toHaveBeenCalled();
  });
});
