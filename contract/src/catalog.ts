import { z } from 'zod';
import { CONDITIONS, EXPLORE_MAX_PAGE_SIZE, EXPLORE_PAGE_SIZE, SORTS } from './constants.ts';
import { FULFILLMENTS, MAX_SHIPPING_CENTS } from './shipping.ts';
import { textSchema } from './text.ts';

/** Totals above this are estimated by the planner instead of counted exactly (see docs/api.md). */
export const EXACT_TOTAL_LIMIT = 1000;

export const MAX_PRICE_CENTS = 10_000_000;
export const MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 * 1024;
export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** http(s) URL or a site-relative path such as /media/uploads/x.webp. */
/**
 * A product image: an http(s) URL elsewhere, or media this site stored itself: an upload
 * (`/media/uploads/<uuid>.webp`, what POST /api/uploads/product-image answers) or a demo drawing
 * (`/media/seed/…svg`). Any other path on the site is refused: an <img> pointing at an endpoint
 * (GET /api/logout) would make every visitor's browser call it with their cookie.
 */
export const IMAGE_URL_PATTERN =
  /^(https?:\/\/[^\s]+|\/media\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp|\/media\/seed\/(products|avatars)\/[a-z0-9_-]+\.svg)$/i;

const optionalNumberParam = (field: string, schema: z.ZodNumber) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    z.coerce
      .number({ error: `${field} must be a number` })
      .pipe(schema)
      .optional(),
  );

/** Query of GET /api/explore and GET /api/facets. Prices are in dollars, as the filter panel shows. */
export const exploreQuerySchema = z.object({
  search: textSchema('search').max(200, 'search must be at most 200 characters').optional(),
  category: optionalNumberParam('category', z.number().int('category must be a category id').positive()),
  condition: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(CONDITIONS, { error: 'condition must be new, used or refurbished' }).optional(),
  ),
  minPrice: optionalNumberParam('minPrice', z.number().min(0, 'minPrice must be 0 or more').max(100_000)),
  maxPrice: optionalNumberParam('maxPrice', z.number().min(0, 'maxPrice must be 0 or more').max(100_000)),
  sort: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(SORTS, { error: 'sort must be newest, relevance, price_low or price_high' }).default('newest'),
  ),
  page: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be 1 or more')
      .max(100_000, 'page is too large')
      .default(1),
  ),
  limit: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be 1 or more')
      .transform((n) => Math.min(n, EXPLORE_MAX_PAGE_SIZE))
      .default(EXPLORE_PAGE_SIZE),
  ),
});
export type ExploreQuery = z.input<typeof exploreQuerySchema>;

export const sellerSummarySchema = z.object({
  id: z.string(),
  handle: z.string(),
  businessName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  /**
   * The seller finished the payment provider's payout onboarding. Matters only where the payments
   * config says `sellersOnboard` (Stripe Connect): then a seller not onboarded takes no paid orders.
   */
  onboarded: z.boolean(),
});

export const productSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  condition: z.enum(CONDITIONS),
  categoryId: z.number().int(),
  imageUrl: z.string().nullable(),
  stock: z.number().int(),
  /** ship (needs an address at checkout), digital or pickup. */
  fulfillment: z.enum(FULFILLMENTS),
  /** Flat shipping added to the price at checkout; 0 unless fulfillment is ship. */
  shippingCents: z.number().int(),
  isLiveLinked: z.boolean(),
  /** Present when the product was shown in a stream, so a replay exists. */
  streamId: z.string().nullable(),
  seller: sellerSummarySchema,
  createdAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const streamSchema = z.object({
  id: z.string(),
  roomName: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  viewCount: z.number().int(),
  durationSec: z.number().int(),
  isActive: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  vodUrl: z.string().nullable(),
  /** HLS: the live playlist while live, the replay's playlist after the end (null before HLS). */
  hlsUrl: z.string().nullable(),
  /** A recent frame of the stream (updated every 30 s while live), or null. */
  thumbnailUrl: z.string().nullable(),
  owner: z.object({ handle: z.string() }),
});
export type Stream = z.infer<typeof streamSchema>;

export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  /** True when total is the planner's estimate (above EXACT_TOTAL_LIMIT). */
  totalIsEstimate: z.boolean(),
});

export const exploreResponseSchema = z.object({
  products: z.array(productSchema),
  live: z.array(streamSchema),
  pagination: paginationSchema,
});
export type ExploreResponse = z.infer<typeof exploreResponseSchema>;

export const categoryFacetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  productCount: z.number().int(),
});
export type CategoryFacet = z.infer<typeof categoryFacetSchema>;

/** Counts under the current search and filters; a facet's own filter is left out of its counts. */
export const facetsResponseSchema = z.object({
  categories: z.array(categoryFacetSchema),
  conditions: z.array(z.object({ condition: z.enum(CONDITIONS), productCount: z.number().int() })),
});
export type FacetsResponse = z.infer<typeof facetsResponseSchema>;

export const productBodySchema = z.object({
  title: textSchema('title').min(1, 'title is required').max(200, 'title must be at most 200 characters'),
  description: textSchema('description', { multiline: true })
    .max(5000, 'description must be at most 5,000 characters')
    .nullish()
    .transform((value) => value || null),
  priceCents: z
    .number({ error: 'priceCents must be a number of cents' })
    .int('priceCents must be a whole number of cents')
    // Checkout refuses a product without a price, so a $0 product could never be sold.
    .min(1, 'priceCents must be more than 0')
    .max(MAX_PRICE_CENTS, 'priceCents must be at most 10,000,000'),
  condition: z.enum(CONDITIONS, { error: 'condition must be new, used or refurbished' }),
  categoryId: z
    .number({ error: 'categoryId is required' })
    .int('categoryId must be a category id')
    .positive(),
  imageUrl: z
    .string()
    .trim()
    .max(2000, 'imageUrl is too long')
    .nullish()
    .transform((value) => value || null)
    .refine((value) => value === null || IMAGE_URL_PATTERN.test(value), {
      message: 'imageUrl must be an http(s) URL or an image uploaded here',
    }),
  stock: z
    .number({ error: 'stock must be a number' })
    .int('stock must be a whole number')
    .min(0, 'stock must be 0 or more')
    .max(1_000_000, 'stock is too large')
    .default(1),
  fulfillment: z.enum(FULFILLMENTS, { error: 'fulfillment must be ship, digital or pickup' }).default('ship'),
  /** Ignored (stored as 0) unless fulfillment is ship. */
  shippingCents: z
    .number({ error: 'shippingCents must be a number of cents' })
    .int('shippingCents must be a whole number of cents')
    .min(0, 'shippingCents must be 0 or more')
    .max(MAX_SHIPPING_CENTS, 'shippingCents must be at most 100,000')
    .default(0),
});
export type ProductBody = z.input<typeof productBodySchema>;

export const productIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be a product id' }) });

/** A show whose lineup has the product: live now (its room) or over with a replay (its room plays it). */
export const productShowSchema = z.object({
  roomName: z.string(),
  title: z.string(),
  live: z.boolean(),
  startedAt: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});
export type ProductShow = z.infer<typeof productShowSchema>;

/** GET /api/products/:id/page: what the public product page shows. */
export const productPageSchema = z.object({
  product: productSchema,
  seller: z.object({
    handle: z.string(),
    businessName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    /** The room the seller is live in now, or null. */
    liveRoomName: z.string().nullable(),
  }),
  /** Live shows first (newest first), then replays (newest first); at most PRODUCT_PAGE_SHOWS. */
  shows: z.array(productShowSchema),
});
export type ProductPage = z.infer<typeof productPageSchema>;

/** How many shows a product page lists. */
export const PRODUCT_PAGE_SHOWS = 12;

export const analyticsSchema = z.object({
  totalViews: z.number().int(),
  totalOrders: z.number().int(),
  /** Cents. */
  totalRevenue: z.number().int(),
  totalProducts: z.number().int(),
  /** Orders the caller bought that stand (not part of totalOrders, which counts sales). */
  totalPurchases: z.number().int(),
});
export type Analytics = z.infer<typeof analyticsSchema>;

/** ADR 0016: paid → shipped → delivered, or cancelled (by the buyer) or refunded (by the seller). */
export const ORDER_STATUSES = ['paid', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses of a sale that stands (counted in totals and stats). */
export const SOLD_ORDER_STATUSES = ['paid', 'shipped', 'delivered'] as const satisfies readonly OrderStatus[];

export const orderSchema = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  createdAt: z.string(),
  status: z.enum(ORDER_STATUSES),
  productTitle: z.string().nullable(),
  /** Whether the caller sold (seller) or bought (buyer) in this order. */
  role: z.enum(['seller', 'buyer']),
});
export type Order = z.infer<typeof orderSchema>;

/** A replay on a seller's storefront. */
export const storefrontStreamSchema = streamSchema.extend({
  /**
   * How many distinct products were pinned during the stream, so its replay features them.
   * Optional: a server from before shoppable replays leaves it out.
   */
  featuredProducts: z.number().int().optional(),
});
export type StorefrontStream = z.infer<typeof storefrontStreamSchema>;

export const storefrontResponseSchema = z.object({
  user: z.object({
    handle: z.string(),
    businessName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    createdAt: z.string(),
  }),
  products: z.array(productSchema),
  streams: z.array(storefrontStreamSchema),
  /** The seller's stream live now (its room is where the storefront's 'Live now' leads), or null. */
  liveStream: streamSchema.nullable(),
  stats: z.object({
    productCount: z.number().int(),
    vodCount: z.number().int(),
    totalViews: z.number().int(),
  }),
});
export type StorefrontResponse = z.infer<typeof storefrontResponseSchema>;

export const handleParamsSchema = z.object({ handle: textSchema('handle').min(1).max(64) });

export const imageUploadResponseSchema = z.object({ url: z.string() });
