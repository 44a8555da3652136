import { describe, expect, it } from 'vitest';
import { absoluteUrl, headTags, PAGE_META, PUBLIC_PATHS, publicPathOf } from './seo.ts';

describe('publicPathOf', () => {
  it.each([
    ['/', '/'],
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/stream-disc/music//', '/stream-disc/music'],
    ['/signin', undefined],
    ['/about/extra', undefined],
    ['/constructor', undefined],
    ['/toString', undefined],
  ])('%s -> %s', (pathname, expected) => {
    expect(publicPathOf(pathname)).toBe(expected);
  });
});

describe('page metadata', () => {
  it.each(PUBLIC_PATHS)('%s has its own title and a search-result sized description', (path) => {
    const { title, description } = PAGE_META[path];
    expect(title).toContain('StreamShop');
    expect(description.length).toBeGreaterThanOrEqual(50);
    expect(description.length).toBeLessThanOrEqual(160);
  });

  it('gives every route a different title and description', () => {
    const metas = PUBLIC_PATHS.map((path) => PAGE_META[path]);
    expect(new Set(metas.map((m) => m.title)).size).toBe(PUBLIC_PATHS.length);
    expect(new Set(metas.map((m) => m.description)).size).toBe(PUBLIC_PATHS.length);
  });

  it('builds absolute canonical and Open Graph URLs on the public origin', () => {
    expect(absoluteUrl('https://x.test/', '/')).toBe('https://x.test/');
    const tags = headTags('https://x.test', '/team');
    expect(tags).toContainEqual({ kind: 'link', rel: 'canonical', href: 'https://x.test/team' });
    expect(tags).toContainEqual({
      kind: 'meta',
      attribute: 'property',
      key: 'og:url',
      content: 'https://x.test/team',
    });
    expect(tags).toContainEqual({
      kind: 'meta',
      attribute: 'property',
      key: 'og:image',
      content: 'https://x.test/og-image.png',
    });
  });
});
