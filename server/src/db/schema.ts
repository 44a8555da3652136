import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
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
    /** When the owner proved the address is theirs (a link mailed to it); null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The seller's Stripe Connect (Express) account, once onboarding started; null on the local provider. */
    stripeAccountId: text('stripe_account_id'),
    /** Stripe said the account can take charges (account.updated charges_enabled). */
    payoutsEnabledAt: timestamp('payouts_enabled_at', { withTimezone: true }),
    /** When the owner deleted the account: the row stays for the orders that name it, emptied. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_handle_key').on(t.handle),
    uniqueIndex('users_email_key').on(t.email),
    // A Stripe payout event names the account: it finds the one seller who owns it.
    uniqueIndex('users_stripe_account_key')
      .on(t.stripeAccountId)
      .where(sql`${t.stripeAccountId} is not null`),
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
    /** The browser's User-Agent when the session started (the settings page names the device). */
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Single-use links mailed to an account: verify the address, reset the password, confirm a new
 * address. The table keeps only an HMAC of the token; `email` is the address the link was sent to.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password', 'change_email'] }).notNull(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_key').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
    check(
      'account_tokens_purpose_check',
      sql`${t.purpose} in ('verify_email', 'reset_password', 'change_email')`,
    ),
  ],
);

/** Mail to send (ADR 0015): written with the event that causes it, sent by a job on any instance. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    /** Names the event (e.g. verify-email:<token id>): the same event queues one message. */
    dedupeKey: text('dedupe_key').notNull(),
    toAddress: text('to_address').notNull(),
    /** Where an answer goes when not to the sender (a contact message: the person who wrote it). */
    replyTo: text('reply_to'),
    /** The one-click unsubscribe URL of a notification (List-Unsubscribe, RFC 8058), or null. */
    listUnsubscribe: text('list_unsubscribe'),
    subject: text('subject').notNull(),
    /** Blanked once sent. */
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A sender claimed it until then; another may take it over afterwards. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Given up on after too many failed attempts. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_key').on(t.dedupeKey),
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
  ],
);

/**
 * Files that must leave storage (a deleted account's video folders and images), queued in the
 * transaction that decides it and removed by every instance's worker, retried until storage
 * answers (ADR 0020). A row goes once its files are gone.
 */
export const storageRemovals = pgTable(
  'storage_removals',
  {
    /** A storage key, or a folder ending in "/" (everything below it). */
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull().default(0),
    /** Due then; a worker that claims it moves this ahead by its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('storage_removals_due_idx').on(t.nextAttemptAt)],
);

/**
 * Who uploaded each image (POST /api/uploads/product-image): only its owner may use it as a
 * profile picture or a product's image, and deleting an account removes the uploads it owns
 * (not those of products kept for their orders), never another account's.
 */
export const uploads = pgTable(
  'uploads',
  {
    /** The storage key, `uploads/<uuid>.webp` (served as /media/uploads/<uuid>.webp). */
    key: text('key').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
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
    /**
     * The owner's plan for this stream (its picture size and length): set at creation, following the
     * owner's plan until it starts, and kept from then on until it ends.
     */
    plan: text('plan', { enum: ['free', 'pro'] })
      .notNull()
      .default('free'),
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
    /**
     * A stream key made before keys stopped being stored (migration 0017): kept only so an encoder
     * set up with it keeps working until its owner resets it. New keys are never written here.
     */
    ingestKey: text('ingest_key'),
    /**
     * The stream key an encoder (OBS) publishes with is HMAC(SESSION_SECRET, stream id and this
     * nonce): the database alone cannot give it. Made when the owner first asks; a reset replaces it.
     */
    ingestKeyNonce: text('ingest_key_nonce'),
    /** SHA-256 (hex) of the stream key, to find the stream an encoder publishes to. */
    ingestKeyHash: text('ingest_key_hash'),
    /** Since when an RTMP encoder has been publishing this stream; null while none is. */
    encoderConnectedAt: timestamp('encoder_connected_at', { withTimezone: true }),
    /** When the encoder last left (it has the reconnect grace to come back); null while one publishes. */
    encoderLeftAt: timestamp('encoder_left_at', { withTimezone: true }),
    /** The server instance holding the stream's publisher (browser or encoder); null when none does. */
    publisherInstance: text('publisher_instance'),
    /**
     * The publisher's last sign of life: its instance renews it every few seconds while it is
     * connected, and sets it when the publisher leaves. Null when none ever published. Any instance
     * ends a live stream whose publisher has been gone for the grace (ADR 0018).
     */
    publisherSeenAt: timestamp('publisher_seen_at', { withTimezone: true }),
    /**
     * The replay of an ended stream: null until an instance claims it, 'building' while the one that
     * claimed it (replay_builder, until replay_lease_until) joins the recorded parts, then 'ready'
     * (vod_url set) or 'empty' (nothing was recorded). A lapsed lease may be claimed again.
     */
    replayState: text('replay_state', { enum: ['building', 'ready', 'empty'] }),
    replayBuilder: text('replay_builder'),
    replayLeaseUntil: timestamp('replay_lease_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('streams_room_name_key').on(t.roomName),
    uniqueIndex('streams_ingest_key_key').on(t.ingestKey),
    uniqueIndex('streams_ingest_key_hash_key').on(t.ingestKeyHash),
    index('streams_owner_idx').on(t.ownerId, t.createdAt.desc()),
    index('streams_active_idx').on(t.endsAt).where(sql`${t.isActive}`),
    // Ended streams whose replay is not made yet: every instance looks for them every few seconds.
    index('streams_replay_todo_idx')
      .on(t.endedAt)
      .where(
        sql`${t.endedAt} is not null and ${t.vodUrl} is null and ${t.replayState} is distinct from 'empty'`,
      ),
    check('streams_plan_check', sql`${t.plan} in ('free', 'pro')`),
    check('streams_replay_state_check', sql`${t.replayState} in ('building', 'ready', 'empty')`),
  ],
);

/**
 * The recorded parts of a stream (ADR 0018): one per ffmpeg run of a publisher, on whichever
 * instance ran it. Its segments and its own playlist (`part-<id>.m3u8`) are in storage under the
 * stream's folder; the replay joins every part in the order they started.
 */
export const streamParts = pgTable(
  'stream_parts',
  {
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    /** The prefix of the part's files in storage (a time and a random part). */
    id: text('id').notNull(),
    /** The instance recording it (for the logs, and the heartbeat of its open parts). */
    instanceId: text('instance_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Renewed every few seconds while the part is recorded: a stale open part's instance is gone. */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Every segment and the part's closed playlist are in storage. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.streamId, t.id] }),
    index('stream_parts_open_idx').on(t.instanceId).where(sql`${t.closedAt} is null`),
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
    /** How the buyer gets it: shipped (needs an address), digital or picked up (ADR 0016). */
    fulfillment: text('fulfillment', { enum: ['ship', 'digital', 'pickup'] })
      .notNull()
      .default('ship'),
    /** The seller's flat shipping price, added to the total of a shipped product. */
    shippingCents: integer('shipping_cents').notNull().default(0),
    /**
     * When the product left the catalogue while its row stays (its seller deleted the account, and
     * orders name it): explore, search and facets leave it out; stock is 0.
     */
    unlistedAt: timestamp('unlisted_at', { withTimezone: true }),
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
    check('products_fulfillment_check', sql`${t.fulfillment} in ('ship', 'digital', 'pickup')`),
    check('products_shipping_check', sql`${t.shippingCents} >= 0 and ${t.shippingCents} <= 100000`),
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
    kind: text('kind', { enum: ['checkout', 'subscription', 'disc_preorder', 'auction'] }).notNull(),
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
    /** Shipping included in amountCents (checkout of a shipped product). */
    shippingCents: integer('shipping_cents').notNull().default(0),
    /** Where the buyer asked it shipped, as given at checkout (copied onto the order). */
    shippingAddress: jsonb('shipping_address'),
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
    /** ADR 0016: paid → shipped → delivered, or cancelled (by the buyer) or refunded (by the seller). */
    status: text('status', { enum: ['paid', 'shipped', 'delivered', 'cancelled', 'refunded'] })
      .notNull()
      .default('paid'),
    /** Shipping included in amountCents. */
    shippingCents: integer('shipping_cents').notNull().default(0),
    /** The address at checkout (a snapshot); null for digital and pickup products. */
    shippingAddress: jsonb('shipping_address'),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'orders_status_check',
      sql`${t.status} in ('paid', 'shipped', 'delivered', 'cancelled', 'refunded')`,
    ),
    index('orders_shipped_idx').on(t.shippedAt).where(sql`${t.status} = 'shipped'`),
    uniqueIndex('orders_payment_key').on(t.paymentId),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('orders_stream_idx').on(t.streamId),
  ],
);

/** Addresses a buyer shipped to, offered again at the next checkout (newest first). */
export const addresses = pgTable(
  'addresses',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    line1: text('line1').notNull(),
    line2: text('line2'),
    city: text('city').notNull(),
    region: text('region'),
    postalCode: text('postal_code').notNull(),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('addresses_user_idx').on(t.userId, t.lastUsedAt.desc())],
);

/**
 * What the platform owes each seller (ADR 0016), append only: sale (+), fee (−), refund (−),
 * fee_refund (+), payout (−). A seller's balance is the sum of their entries.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    kind: text('kind', {
      enum: ['sale', 'fee', 'refund', 'fee_refund', 'payout', 'payout_reversal'],
    }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** The provider's payout behind a `payout` or `payout_reversal` (Stripe's po_…); null for local payouts. */
    payoutRef: text('payout_ref'),
    /** When the amount may be paid out (sales: 7 days after the payment). */
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_seller_idx').on(t.sellerId, t.createdAt),
    uniqueIndex('ledger_entries_order_kind_key').on(t.orderId, t.kind).where(sql`${t.kind} <> 'payout'`),
    // One payout entry and at most one reversal per provider payout, however often it is announced.
    uniqueIndex('ledger_entries_payout_ref_kind_key')
      .on(t.payoutRef, t.kind)
      .where(sql`${t.payoutRef} is not null`),
    check(
      'ledger_entries_kind_check',
      sql`${t.kind} in ('sale', 'fee', 'refund', 'fee_refund', 'payout', 'payout_reversal')`,
    ),
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
    /** When the first invoice was paid: the 30-day money-back guarantee counts from here. */
    firstPaidAt: timestamp('first_paid_at', { withTimezone: true }),
    /** When the owner asked for the money-back refund (once per account), before the provider was asked. */
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    /** When the provider refunded it and the plan returned to free. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * A money-back request is with the provider until then: another request meanwhile is told it
     * is being processed. Cleared when the provider fails; a request that died lets a retry take
     * over once it passes.
     */
    refundAttemptUntil: timestamp('refund_attempt_until', { withTimezone: true }),
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
 * The money-back guarantee is once per address too, not only per account: a claim records a keyed
 * hash (HMAC-SHA256 under SESSION_SECRET) of the address the account had when it claimed, so
 * neither deleting the account and signing up again nor changing the address opens it again.
 */
export const moneyBackClaims = pgTable(
  'money_back_claims',
  {
    /** HMAC-SHA256 of the trimmed, lower-cased address, base64url; never the address itself. */
    emailHash: text('email_hash').primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('money_back_claims_subscription_idx').on(t.subscriptionId)],
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

/**
 * The local provider's card setups and the cards they saved (its SetupIntents and PaymentMethods):
 * a setup is confirmed with a test card in the browser; charging the saved card later decides it
 * again (4000 0000 0000 0341 saves, then declines every charge, as Stripe's test card does).
 */
export const localCardSetups = pgTable(
  'local_card_setups',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    customerRef: text('customer_ref').notNull(),
    status: text('status', { enum: ['requires_payment_method', 'succeeded'] }).notNull(),
    /** The saved card, once confirmed: its method ref (lpm_…) and what a charge on it does. */
    methodRef: text('method_ref'),
    cardNumber: text('card_number'),
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('local_card_setups_secret_key').on(t.clientSecret),
    uniqueIndex('local_card_setups_method_key').on(t.methodRef),
  ],
);

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

/**
 * A buyer's saved card at the payment provider (issue 28): charged off-session when they win an
 * auction. `customerRef` is the provider's customer the card is attached to; the newest is the default.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerRef: text('customer_ref').notNull(),
    methodRef: text('method_ref').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_methods_method_key').on(t.provider, t.methodRef),
    index('payment_methods_user_idx').on(t.userId, t.createdAt),
  ],
);

/** The provider's customer of each account (one per provider), made on the first card setup. */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerRef: text('customer_ref').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * A live auction of one unit of a lineup product (issue 28, ADR 0022): one truth per auction, in
 * this row, changed under its row lock. running → ended (claimed once, at ends_at, by whichever
 * instance's update gets the row: the result is written then) or cancelled (before any bid). The
 * winner's charge (payment_state pending → paid | declined) runs under a short lease
 * (lease_token, leased_until), so a dead instance's settlement is taken over.
 */
export const auctions = pgTable(
  'auctions',
  {
    id: id(),
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['running', 'ended', 'cancelled'] })
      .notNull()
      .default('running'),
    startingBidCents: integer('starting_bid_cents').notNull(),
    /** Null until the first bid. */
    currentBidCents: integer('current_bid_cents'),
    leaderId: uuid('leader_id').references(() => users.id, { onDelete: 'set null' }),
    /** The leader's maximum (secret: never in a response). */
    leaderMaxCents: integer('leader_max_cents'),
    suddenDeath: boolean('sudden_death').notNull().default(false),
    extendSec: integer('extend_sec').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    bidCount: integer('bid_count').notNull().default(0),
    /** Bumped by every change, so a viewer keeps the newest view across instances. */
    version: integer('version').notNull().default(1),
    /** The result, set at the close: the winner and the price (null when nobody bid). */
    winnerId: uuid('winner_id').references(() => users.id, { onDelete: 'set null' }),
    priceCents: integer('price_cents'),
    /** Where the winner's charge is: pending (being charged), paid, declined (until pay_by). */
    paymentState: text('payment_state', { enum: ['pending', 'paid', 'declined'] }),
    /** The payment row of the charge (its id is the provider's idempotency key). */
    paymentId: uuid('payment_id').references(() => payments.id),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    payBy: timestamp('pay_by', { withTimezone: true }),
    lastError: text('last_error'),
    /** The settlement's lease: bumped by every claim; a renewal keeps it only while unchanged. */
    leaseToken: integer('lease_token').notNull().default(0),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One auction at a time per room, by the database itself.
    uniqueIndex('auctions_one_running_key').on(t.streamId).where(sql`${t.status} = 'running'`),
    index('auctions_stream_idx').on(t.streamId, t.startedAt),
    index('auctions_due_idx').on(t.status, t.endsAt),
    index('auctions_settling_idx').on(t.paymentState).where(sql`${t.paymentState} = 'pending'`),
    uniqueIndex('auctions_payment_key').on(t.paymentId),
    check('auctions_starting_bid_check', sql`${t.startingBidCents} > 0`),
  ],
);

/** Every accepted bid of an auction, in the order its row lock accepted them (`seq`). */
export const auctionBids = pgTable(
  'auction_bids',
  {
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    /** Placed by the server for the bidder's maximum. */
    proxy: boolean('proxy').notNull().default(false),
    /** The bidder's maximum as given with this bid (the proxy's maximum for a proxy bid). */
    maxCents: integer('max_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.auctionId, t.seq] })],
);

/**
 * Every bid request the auction took (leading or outbid, a raised maximum too), by the client's id:
 * the same clientBidId twice is one bid, and replaying them in `version` order gives the result.
 */
export const auctionBidRequests = pgTable(
  'auction_bid_requests',
  {
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientBidId: text('client_bid_id').notNull(),
    outcome: text('outcome', { enum: ['leading', 'outbid'] }).notNull(),
    /** The maximum the request named (a one-tap bid's amount): replaying requests gives the result. */
    maxCents: integer('max_cents').notNull(),
    /** The auction's version this request made: the order requests were taken in. */
    version: integer('version').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.auctionId, t.bidderId, t.clientBidId] }),
    uniqueIndex('auction_bid_requests_version_key').on(t.auctionId, t.version),
  ],
);

/** Bidders a seller blocked from their rooms' auctions. */
export const auctionBlocks = pgTable(
  'auction_blocks',
  {
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.userId] })],
);

/** Who follows which seller (issue 29). */
export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.sellerId] }),
    // A seller's followers in id order: the fan-out's batches.
    index('follows_seller_idx').on(t.sellerId, t.followerId),
    check('follows_not_self_check', sql`${t.followerId} <> ${t.sellerId}`),
  ],
);

/**
 * A show a seller scheduled (issue 29): scheduled → live (the seller went live from it: stream_id)
 * or missed (not started SHOW_MISSED_AFTER_MINUTES after its time). "Ended" is read off the stream.
 */
export const shows = pgTable(
  'shows',
  {
    id: id(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /** The seller's IANA time zone, shown to buyers beside their own. */
    timeZone: text('time_zone').notNull(),
    coverUrl: text('cover_url'),
    status: text('status', { enum: ['scheduled', 'live', 'missed'] })
      .notNull()
      .default('scheduled'),
    streamId: uuid('stream_id').references(() => streams.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shows_upcoming_idx').on(t.status, t.startsAt),
    index('shows_seller_idx').on(t.sellerId, t.startsAt),
    uniqueIndex('shows_stream_key').on(t.streamId),
  ],
);

/** A show's lineup, in order: it becomes the room's lineup when the seller goes live from the show. */
export const showProducts = pgTable(
  'show_products',
  {
    showId: uuid('show_id')
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.showId, t.productId] })],
);

/** "Remind me": who asked to be told before a show starts and when it goes live. */
export const showReminders = pgTable(
  'show_reminders',
  {
    showId: uuid('show_id')
      .notNull()
      .references(() => shows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.showId, t.userId] })],
);

/**
 * One event to tell people about (ADR 0023): `live:<stream id>` or `reminder:<show id>`, written
 * once by whichever instance's sweep sees it first, then fanned out in batches under a lease; the
 * cursor (the last recipient's user id) is committed with each batch, so a restart resumes there.
 */
export const notificationFanouts = pgTable(
  'notification_fanouts',
  {
    id: id(),
    eventKey: text('event_key').notNull(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    showId: uuid('show_id').references(() => shows.id, { onDelete: 'set null' }),
    /** What the notification says and where it leads, written once for every recipient. */
    text: text('text').notNull(),
    link: text('link').notNull(),
    subject: text('subject').notNull(),
    /** The last recipient done (user ids in order); null before the first batch. */
    cursor: uuid('cursor'),
    notified: integer('notified').notNull().default(0),
    doneAt: timestamp('done_at', { withTimezone: true }),
    leaseToken: integer('lease_token').notNull().default(0),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_fanouts_event_key').on(t.eventKey),
    index('notification_fanouts_due_idx').on(t.createdAt).where(sql`${t.doneAt} is null`),
  ],
);

/** A person's notifications: one per event (`unique (user_id, event_key)`), read or not. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    kind: text('kind', { enum: ['live', 'reminder'] }).notNull(),
    text: text('text').notNull(),
    link: text('link').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_event_key').on(t.userId, t.eventKey),
    index('notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Per kind and channel; no row means every one on. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  liveEmail: boolean('live_email').notNull().default(true),
  liveInApp: boolean('live_in_app').notNull().default(true),
  reminderEmail: boolean('reminder_email').notNull().default(true),
  reminderInApp: boolean('reminder_in_app').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A giveaway in a live room (issue 29): one unit of a lineup product, to everyone, followers or
 * buyers of the show. running → drawn (at ends_at, by whichever instance locks it first: the winner
 * from the seed and the entrants, and their $0 order) or cancelled. The seed stays secret until drawn.
 */
export const giveaways = pgTable(
  'giveaways',
  {
    id: id(),
    streamId: uuid('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    audience: text('audience', { enum: ['everyone', 'followers', 'buyers'] }).notNull(),
    status: text('status', { enum: ['running', 'drawn', 'cancelled'] })
      .notNull()
      .default('running'),
    seed: text('seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    winnerId: uuid('winner_id').references(() => users.id, { onDelete: 'set null' }),
    winnerHandle: text('winner_handle'),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('giveaways_one_running_key').on(t.streamId).where(sql`${t.status} = 'running'`),
    index('giveaways_due_idx').on(t.status, t.endsAt),
  ],
);

/** Who entered a giveaway, with the handle they had then (the draw's input). */
export const giveawayEntries = pgTable(
  'giveaway_entries',
  {
    giveawayId: uuid('giveaway_id')
      .notNull()
      .references(() => giveaways.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.giveawayId, t.userId] })],
);
