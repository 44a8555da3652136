import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Entities of spec section 3. Money is integer cents; ids are UUIDs except categories. */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const id = () => uuid('id').primaryKey().defaultRandom();

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-case, 3-30 of [a-z0-9_]; unique. */
    handle: text('handle').notNull(),
    email: text('email').notNull(),
    /** Null for accounts that only sign in through an identity provider. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    businessName: text('business_name'),
    profileImageUrl: text('profile_image_url'),
    plan: text('plan', { enum: ['free', 'pro'] })
      .notNull()
      .default('free'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_handle_key').on(t.handle),
    uniqueIndex('users_email_key').on(t.email),
    check('users_plan_check', sql`${t.plan} in ('free', 'pro')`),
  ],
);

/** Links an account to an external OpenID Connect identity (provider + subject). */
export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_key').on(t.provider, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/** Server-side sessions. The cookie holds a random id; the table keeps only its HMAC. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const categories = pgTable(
  'categories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
  },
  (t) => [uniqueIndex('categories_slug_key').on(t.slug)],
);

export const streams = pgTable(
  'streams',
  {
    id: id(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roomName: text('room_name').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    rtmpUrl: text('rtmp_url'),
    durationSec: integer('duration_sec').notNull(),
    viewCount: integer('view_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** When the plan's limit ends the stream; the server ends it then even without the broadcaster. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    vodUrl: text('vod_url'),
  },
  (t) => [
    uniqueIndex('streams_room_name_key').on(t.roomName),
    index('streams_owner_idx').on(t.ownerId, t.createdAt.desc()),
    index('streams_active_idx').on(t.endsAt).where(sql`${t.isActive}`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: id(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    title: text('title').notNull(),
    description: text('description'),
    priceCents: integer('price_cents').notNull(),
    condition: text('condition', { enum: ['new', 'used', 'refurbished'] }).notNull(),
    imageUrl: text('image_url'),
    /** Units left to sell; a payment decrements it and it never goes below zero. */
    stock: integer('stock').notNull().default(1),
    isLiveLinked: boolean('is_live_linked').notNull().default(false),
    /** Present when the product was shown in a stream, so a replay exists. */
    streamId: uuid('stream_id').references(() => streams.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')`,
    ),
  },
  (t) => [
    check('products_price_check', sql`${t.priceCents} >= 0 and ${t.priceCents} <= 10000000`),
    check('products_stock_check', sql`${t.stock} >= 0`),
    check('products_condition_check', sql`${t.condition} in ('new', 'used', 'refurbished')`),
    index('products_newest_idx').on(t.createdAt.desc(), t.id),
    index('products_category_newest_idx').on(t.categoryId, t.createdAt.desc()),
    index('products_price_idx').on(t.priceCents, t.id),
    index('products_category_price_idx').on(t.categoryId, t.priceCents),
    index('products_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('products_search_idx').using('gin', t.searchVector),
    index('products_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_stream_idx').on(t.streamId, t.createdAt)],
);

/** A user muted by a room's owner: their chat messages in that owner's rooms are refused. */
export const chatMutes = pgTable(
  'chat_mutes',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chat_mutes_key').on(t.ownerId, t.userId)],
);

/** A payment attempt with a provider: a checkout of one product or a Pro subscription. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['checkout', 'subscription', 'disc_preorder'] }).notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'refunded'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_ref_key').on(t.provider, t.providerRef),
    index('payments_user_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/** Webhook events already handled, so a replayed event changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_events_key').on(t.provider, t.eventId)],
);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['completed', 'refunded'] })
      .notNull()
      .default('completed'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('orders_payment_key').on(t.paymentId),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull(),
    status: text('status', { enum: ['incomplete', 'active', 'canceled', 'expired'] }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_ref_key').on(t.provider, t.providerRef),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

export const betaSignups = pgTable(
  'beta_signups',
  {
    id: id(),
    email: text('email').notNull(),
    source: text('source').notNull().default('site'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('beta_signups_email_key').on(t.email)],
);

export const newsletterPreorders = pgTable(
  'newsletter_preorders',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    quantity: integer('quantity').notNull(),
    totalPriceCents: integer('total_price_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_preorders_email_key').on(t.email),
    check('newsletter_preorders_quantity_check', sql`${t.quantity} >= 1`),
  ],
);

export const discPreorders = pgTable(
  'disc_preorders',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    status: text('status', { enum: ['pending', 'paid', 'cancelled'] })
      .notNull()
      .default('pending'),
    paymentRef: text('payment_ref'),
    createdAt: createdAt(),
  },
  (t) => [index('disc_preorders_email_idx').on(t.email)],
);

export const discOrders = pgTable(
  'disc_orders',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    company: text('company'),
    quantity: integer('quantity').notNull(),
    shippingAddress: text('shipping_address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zipCode: text('zip_code').notNull(),
    country: text('country').notNull().default('US'),
    createdAt: createdAt(),
  },
  (t) => [check('disc_orders_quantity_check', sql`${t.quantity} between 1 and 1000`)],
);
