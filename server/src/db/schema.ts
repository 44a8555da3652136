import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
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
    /** Last request made with the session, for the idle timeout (written at most once a minute). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
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
    /** The latest frame grabbed while live (every 30 s); it stays with the replay. */
    thumbnailUrl: text('thumbnail_url'),
    /** The stream key an encoder (OBS) publishes with over RTMP; made when the owner first asks. */
    ingestKey: text('ingest_key'),
    /** Since when an RTMP encoder has been publishing this stream; null while none is. */
    encoderConnectedAt: timestamp('encoder_connected_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('streams_room_name_key').on(t.roomName),
    uniqueIndex('streams_ingest_key_key').on(t.ingestKey),
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
    /** 'purchase' for the system line a completed purchase in the room posts. */
    kind: text('kind', { enum: ['user', 'purchase'] })
      .notNull()
      .default('user'),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_stream_idx').on(t.streamId, t.createdAt)],
);

/**
 * A user muted by a seller (or one of the seller's moderators): their chat messages in that
 * seller's rooms are refused, for good (a ban) or until expiresAt (a time-out).
 */
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
    /** Null for a ban; the end of a time-out otherwise. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('chat_mutes_key').on(t.ownerId, t.userId)],
);

/** A seller's chat rules, for every room of theirs. */
export const chatSettings = pgTable('chat_settings', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** One message per this many seconds per user; 0 is off. */
  slowModeSec: integer('slow_mode_sec').notNull().default(0),
  /** Messages containing one of these words (case-insensitive, whole word) are refused. */
  blockedWords: text('blocked_words').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Users a seller appointed to moderate their rooms (delete, time out, ban, pin, offer). */
export const sellerModerators = pgTable(
  'seller_moderators',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('seller_moderators_key').on(t.ownerId, t.userId)],
);

/** The products a seller lined up for a stream, in order. */
export const streamProducts = pgTable(
  'stream_products',
  {
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stream_products_key').on(t.streamId, t.productId)],
);

/** Each time a product was pinned in a stream: the replay's product chapters. */
export const streamPins = pgTable(
  'stream_pins',
  {
    id: id(),
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null while pinned. */
    unpinnedAt: timestamp('unpinned_at', { withTimezone: true }),
  },
  (t) => [
    index('stream_pins_stream_idx').on(t.streamId, t.pinnedAt),
    uniqueIndex('stream_pins_open_key').on(t.streamId, t.productId).where(sql`${t.unpinnedAt} is null`),
  ],
);

/** A time-limited price on a pinned product, for at most `quantity` units. */
export const streamOffers = pgTable(
  'stream_offers',
  {
    id: id(),
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    priceCents: integer('price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Set when the seller ends it early. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('stream_offers_stream_idx').on(t.streamId, t.startsAt),
    check('stream_offers_price_check', sql`${t.priceCents} > 0`),
    check('stream_offers_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/** Viewers of a live stream, sampled every few seconds (any instance; the highest count wins). */
export const streamViewerSamples = pgTable(
  'stream_viewer_samples',
  {
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    viewers: integer('viewers').notNull(),
  },
  (t) => [uniqueIndex('stream_viewer_samples_key').on(t.streamId, t.at)],
);

/**
 * Who has been counted as a view of a stream and when: a viewer (a user, or an address for the
 * signed out; the key is an HMAC, never the raw address) adds one view per stream per window.
 */
export const streamViews = pgTable(
  'stream_views',
  {
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.viewerKey] })],
);

/**
 * A payment with a provider: a checkout of one product, a Pro subscription's first invoice or a
 * Stream Disc deposit. A pending checkout payment holds one unit of its product until reservedUntil
 * (ADR 0006).
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    /** Null for a payment by a visitor without an account (Stream Disc deposit). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['checkout', 'subscription', 'disc_preorder'] }).notNull(),
    provider: text('provider').notNull(),
    /** The provider's id for the payment; null until the provider answered. */
    providerRef: text('provider_ref'),
    /** Handed to the payer's browser only, so a reload continues the same payment. */
    clientSecret: text('client_secret'),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', {
      enum: ['pending', 'succeeded', 'failed', 'expired', 'refunding', 'refunded'],
    })
      .notNull()
      .default('pending'),
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    /** The provider's message for the latest failed attempt, e.g. 'Your card was declined.' */
    lastError: text('last_error'),
    /** Bought from a stream's room or replay. */
    streamId: uuid('stream_id').references(() => streams.id, { onDelete: 'set null' }),
    /** The live offer whose price this payment got (opened inside the offer's window). */
    offerId: uuid('offer_id').references(() => streamOffers.id, { onDelete: 'set null' }),
    /** The buyer's client address when the payment was opened, to limit open holds per address. */
    clientAddress: text('client_address'),
    /** Whether the room's purchase line may name the buyer (else 'Someone'). */
    showBuyer: boolean('show_buyer').notNull().default(true),
    /** Opened while the stream was live (else from its replay). */
    duringLive: boolean('during_live').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_ref_key').on(t.provider, t.providerRef),
    index('payments_user_idx').on(t.userId, t.createdAt.desc()),
    index('payments_reservation_idx').on(t.productId, t.reservedUntil).where(sql`${t.status} = 'pending'`),
    index('payments_open_idx')
      .on(t.status, t.reservedUntil)
      .where(sql`${t.status} in ('pending', 'refunding')`),
    check(
      'payments_status_check',
      sql`${t.status} in ('pending', 'succeeded', 'failed', 'expired', 'refunding', 'refunded')`,
    ),
    check('payments_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/** Webhook events already handled, so a replayed event changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type'),
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
    /** The stream it was bought from, live or from the replay (duringLive). */
    streamId: uuid('stream_id').references(() => streams.id, { onDelete: 'set null' }),
    duringLive: boolean('during_live').notNull().default(false),
    status: text('status', { enum: ['completed', 'refunded'] })
      .notNull()
      .default('completed'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('orders_payment_key').on(t.paymentId),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('orders_stream_idx').on(t.streamId),
  ],
);

/**
 * A user's Pro subscription. 'incomplete' until the first payment, 'active' while paid (the user's
 * plan is pro), 'expired' once the provider ended it, 'canceled' when abandoned before paying.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    clientSecret: text('client_secret'),
    status: text('status', { enum: ['incomplete', 'active', 'canceled', 'expired'] }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Time of the newest provider event applied; older events arriving late are ignored. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_ref_key').on(t.provider, t.providerRef),
    index('subscriptions_user_idx').on(t.userId),
    uniqueIndex('subscriptions_one_open_key')
      .on(t.userId)
      .where(sql`${t.status} in ('incomplete', 'active')`),
    check('subscriptions_status_check', sql`${t.status} in ('incomplete', 'active', 'canceled', 'expired')`),
  ],
);

/**
 * The local payment provider's own books (platform/payments/local.ts): what a card network and a
 * provider would keep on their side. Only the local provider reads or writes these tables.
 */
export const localPaymentIntents = pgTable(
  'local_payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', {
      enum: ['requires_payment_method', 'requires_action', 'succeeded', 'canceled', 'refunded'],
    }).notNull(),
    /** The merchant's payment id (checkout) or null for a subscription invoice. */
    paymentId: text('payment_id'),
    subscriptionId: text('subscription_id'),
    /** Set for a payment on the provider's hosted page: what it shows and where it returns. */
    description: text('description'),
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    cardLast4: text('card_last4'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('local_payment_intents_secret_key').on(t.clientSecret)],
);

export const localSubscriptions = pgTable('local_subscriptions', {
  id: text('id').primaryKey(),
  status: text('status', { enum: ['incomplete', 'active', 'ended'] }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /** The card saved by the first payment, charged again at each renewal. */
  cardLast4: text('card_last4'),
  createdAt: createdAt(),
});

/** Webhook events the local provider still has to deliver (an outbox, retried until accepted). */
export const localWebhookEvents = pgTable(
  'local_webhook_events',
  {
    id: text('id').primaryKey(),
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('local_webhook_events_due_idx').on(t.nextAttemptAt).where(sql`${t.deliveredAt} is null`)],
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
