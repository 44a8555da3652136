import { describe, expect, it } from 'vitest';
import { pageWindow } from './pagination.ts';

describe('pageWindow', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(pageWindow(1, 1)).toEqual({ pages: [1], showLast: false, last: 1 });
    expect(pageWindow(3, 5)).toEqual({ pages: [1, 2, 3, 4, 5], showLast: false, last: 5 });
  });

  it('has no buttons without pages', () => {
    expect(pageWindow(1, 0).pages).toEqual([]);
  });

  it('starts at page 1 near the beginning, with an ellipsis and the last page', () => {
    expect(pageWindow(1, 18)).toEqual({ pages: [1, 2, 3, 4, 5], showLast: true, last: 18 });
    expect(pageWindow(3, 18)).toEqual({ pages: [1, 2, 3, 4, 5], showLast: true, last: 18 });
  });

  it('centres 5 buttons on the current page in the middle', () => {
    expect(pageWindow(4, 18)).toEqual({ pages: [2, 3, 4, 5, 6], showLast: true, last: 18 });
    expect(pageWindow(10, 18).pages).toEqual([8, 9, 10, 11, 12]);
  });

  it('drops the ellipsis once the current page is total - 2 or later', () => {
    expect(pageWindow(15, 18)).toEqual({ pages: [13, 14, 15, 16, 17], showLast: true, last: 18 });
    expect(pageWindow(16, 18)).toEqual({ pages: [14, 15, 16, 17, 18], showLast: false, last: 18 });
    expect(pageWindow(18, 18)).toEqual({ pages: [14, 15, 16, 17, 18], showLast: false, last: 18 });
  });

  it('shows the ellipsis for 6 pages only while the current page is below 4', () => {
    expect(pageWindow(3, 6)).toEqual({ pages: [1, 2, 3, 4, 5], showLast: true, last: 6 });
    expect(pageWindow(4, 6)).toEqual({ pages: [2, 3, 4, 5, 6], showLast: false, last: 6 });
  });

  it('clamps a page past the end', () => {
    expect(pageWindow(40, 7).pages).toEqual([3, 4, 5, 6, 7]);
  });
});
