import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { describe, expect, it } from 'vitest';
import { chaptersAt, markerPercent, type ReplayChapter } from './replay-chapters.ts';

const product = (id: string): RoomProduct => ({
  id,
  title: id,
  imageUrl: null,
  priceCents: 1000,
  stock: 2,
  condition: 'used',
  fulfillment: 'ship',
  shippingCents: 0,
});
const chapter = (id: string, startSec: number, endSec: number | null): ReplayChapter => ({
  product: product(id),
  startSec,
  endSec,
});

const chapters = [chapter('lamp', 5, 20), chapter('vase', 15, null), chapter('lamp', 40, 50)];
const ids = (seconds: number) => chaptersAt(chapters, seconds).map((c) => c.product.id);

describe('chaptersAt', () => {
  it('finds nothing before the first pin', () => {
    expect(ids(0)).toEqual([]);
  });

  it('includes a chapter from its start and excludes it at its end', () => {
    expect(ids(5)).toEqual(['lamp']);
    expect(ids(19.9)).toEqual(['lamp', 'vase']);
    expect(ids(20)).toEqual(['vase']);
  });

  it('keeps a chapter without an end until the end of the replay', () => {
    expect(ids(10_000)).toEqual(['vase']);
  });

  it('finds a product pinned a second time', () => {
    expect(ids(45)).toEqual(['vase', 'lamp']);
  });
});

describe('markerPercent', () => {
  it('places a marker along the replay', () => {
    expect(markerPercent(30, 120)).toBe(25);
    expect(markerPercent(200, 120)).toBe(100);
  });

  it('has no place without a known duration', () => {
    expect(markerPercent(30, Number.POSITIVE_INFINITY)).toBeNull();
    expect(markerPercent(30, 0)).toBeNull();
  });
});
