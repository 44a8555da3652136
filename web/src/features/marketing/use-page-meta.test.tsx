import { DEFAULT_DESCRIPTION, OG_IMAGE, PAGE_META } from '@streamshop/contract/seo.ts';
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePageMeta } from './use-page-meta.ts';

function Page({ path }: { path: '/stream-disc/music' | '/about' }) {
  usePageMeta(path);
  return null;
}

const content = (selector: string) => document.head.querySelector(selector)?.getAttribute('content');
const canonical = () => document.head.querySelector('link[rel="canonical"]')?.getAttribute('href');

describe('usePageMeta', () => {
  beforeEach(() => {
    document.head.innerHTML = `<title>StreamShop</title><meta name="description" content="${DEFAULT_DESCRIPTION}">`;
  });
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('sets the title, description, canonical URL and Open Graph tags of the route', () => {
    render(<Page path="/stream-disc/music" />);
    const meta = PAGE_META['/stream-disc/music'];
    const url = `${window.location.origin}/stream-disc/music`;
    expect(document.title).toBe(meta.title);
    expect(meta.title).toContain('CDs & Vinyl');
    expect(content('meta[name="description"]')).toBe(meta.description);
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(canonical()).toBe(url);
    expect(content('meta[property="og:title"]')).toBe(meta.title);
    expect(content('meta[property="og:description"]')).toBe(meta.description);
    expect(content('meta[property="og:url"]')).toBe(url);
    expect(content('meta[property="og:type"]')).toBe('website');
    expect(content('meta[property="og:image"]')).toBe(`${window.location.origin}${OG_IMAGE.path}`);
    expect(content('meta[property="og:image:width"]')).toBe('1200');
    expect(content('meta[property="og:image:height"]')).toBe('630');
  });

  it('replaces the tags in place when the route changes, without duplicates', () => {
    const { rerender } = render(<Page path="/stream-disc/music" />);
    rerender(<Page path="/about" />);
    expect(document.title).toBe(PAGE_META['/about'].title);
    expect(canonical()).toBe(`${window.location.origin}/about`);
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(document.head.querySelectorAll('meta[property="og:url"]')).toHaveLength(1);
  });

  it('leaves no route-specific tags behind when the page goes', () => {
    const { unmount } = render(<Page path="/about" />);
    unmount();
    expect(canonical()).toBeUndefined();
    expect(document.head.querySelector('meta[property^="og:"]')).toBeNull();
    expect(content('meta[name="description"]')).toBe(DEFAULT_DESCRIPTION);
  });
});
