import type { Product } from '@streamshop/contract/catalog.ts';
import { sql } from 'drizzle-orm';
import { iso } from '../../db/time.ts';

/**
 * The columns every product listing selects (product + seller), in snake_case as raw SQL returns
 * them, and their mapping to the API shape. One place, so every list answers the same shape.
 */
export const PRODUCT_COLUMNS = sql.raw(`
  p.id, p.title, p.description, p.price_cents, p.condition, p.category_id, p.image_url, p.stock,
  p.fulfillment, p.shipping_cents,
  p.is_live_linked, p.stream_id, p.created_at,
  u.id as seller_id, u.handle as seller_handle, u.business_name as seller_business_name,
  u.profile_image_url as seller_profile_image_url,
  u.payouts_enabled_at is not null as seller_onboarded`);

export type ProductRow = {
  id: string;
  title: string;
  description: string | null;
  price_cents: number;
  condition: Product['condition'];
  category_id: number;
  image_url: string | null;
  stock: number;
  fulfillment: Product['fulfillment'];
  shipping_cents: number;
  is_live_linked: boolean;
  stream_id: string | null;
  created_at: Date | string;
  seller_id: string;
  seller_handle: string;
  seller_business_name: string | null;
  seller_profile_image_url: string | null;
  seller_onboarded: boolean;
};

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    priceCents: row.price_cents,
    condition: row.condition,
    categoryId: row.category_id,
    imageUrl: row.image_url,
    stock: row.stock,
    fulfillment: row.fulfillment,
    shippingCents: row.shipping_cents,
    isLiveLinked: row.is_live_linked,
    streamId: row.stream_id,
    seller: {
      id: row.seller_id,
      handle: row.seller_handle,
      businessName: row.seller_business_name,
      profileImageUrl: row.seller_profile_image_url,
      onboarded: row.seller_onboarded,
    },
    createdAt: iso(row.created_at),
  };
}
