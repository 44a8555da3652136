import { EXACT_TOTAL_LIMIT } from '@streamshop/contract/catalog.ts';
import type { Condition, Sort } from '@streamshop/contract/constants.ts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { PRODUCT_COLUMNS, type ProductRow } from './product-row.ts';

/** Full-text matches ranked for 'relevance' are capped, so a common word stays fast. */
export const RELEVANCE_CANDIDATES = 500;

export interface ProductFilter {
  search?: string | undefined;
  categoryId?: number | undefined;
  condition?: Condition | undefined;
  minPriceCents?: number | undefined;
  maxPriceCents?: number | undefined;
}

/** How the search term matches: full-text, or trigram word similarity when full-text finds nothing. */
export type SearchMode = 'fulltext' | 'fuzzy';

const tsQuery = (search: string) => sql`websearch_to_tsquery('english', ${search})`;

export function whereClause(
  filter: ProductFilter,
  mode: SearchMode,
  omit: 'category' | 'condition' | null = null,
) {
  // Products of deleted accounts keep their rows for the orders that name them, out of the catalogue.
  const parts: SQL[] = [sql`p.unlisted_at is null`];
  if (filter.search) {
    parts.push(
      mode === 'fulltext'
        ? sql`p.search_vector @@ ${tsQuery(filter.search)}`
        : sql`${filter.search} <% p.title`,
    );
  }
  if (filter.categoryId !== undefined && omit !== 'category')
    parts.push(sql`p.category_id = ${filter.categoryId}`);
  if (filter.condition && omit !== 'condition') parts.push(sql`p.condition = ${filter.condition}`);
  if (filter.minPriceCents !== undefined) parts.push(sql`p.price_cents >= ${filter.minPriceCents}`);
  if (filter.maxPriceCents !== undefined) parts.push(sql`p.price_cents <= ${filter.maxPriceCents}`);
  return sql`where ${sql.join(parts, sql` and `)}`;
}

function orderClause(sort: Sort, filter: ProductFilter, mode: SearchMode) {
  switch (sort) {
    case 'price_low':
      return sql`order by p.price_cents asc, p.id`;
    case 'price_high':
      return sql`order by p.price_cents desc, p.id`;
    case 'relevance':
      if (filter.search) {
        return mode === 'fulltext'
          ? sql`order by ts_rank(p.search_vector, ${tsQuery(filter.search)}) desc, p.created_at desc nulls last, p.id`
          : sql`order by word_similarity(${filter.search}, p.title) desc, p.created_at desc nulls last, p.id`;
      }
      return sql`order by p.created_at desc nulls last, p.id`;
    default:
      return sql`order by p.created_at desc nulls last, p.id`;
  }
}

export async function findProducts(
  db: Db,
  filter: ProductFilter,
  mode: SearchMode,
  sort: Sort,
  limit: number,
  offset: number,
): Promise<ProductRow[]> {
  const where = whereClause(filter, mode);
  const ranked = sort === 'relevance' && filter.search;
  // Relevance ranks a bounded candidate set: ranking every match of a common word is what is slow.
  const source = ranked
    ? sql`(select * from products p ${where} limit ${RELEVANCE_CANDIDATES}) p`
    : sql`products p`;
  const result = await db.execute<ProductRow>(sql`
    select ${PRODUCT_COLUMNS}
    from ${source}
    join users u on u.id = p.seller_id
    ${ranked ? sql`` : where}
    ${orderClause(sort, filter, mode)}
    limit ${limit} offset ${offset}`);
  return result.rows;
}

/**
 * The planner's estimate first (an EXPLAIN costs well under a millisecond); only when it is small
 * enough is the exact count taken, bounded at EXACT_TOTAL_LIMIT + 1 rows. So a broad query never
 * counts a million rows, and a narrow one gets an exact total.
 */
export async function countProducts(
  db: Db,
  filter: ProductFilter,
  mode: SearchMode,
): Promise<{ total: number; estimate: boolean }> {
  const where = whereClause(filter, mode);
  const plan = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) select 1 from products p ${where}`,
  );
  const estimated = Math.round(plan.rows[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0);
  if (estimated > EXACT_TOTAL_LIMIT * 2) return { total: estimated, estimate: true };
  const bounded = await db.execute<{ n: number }>(
    sql`select count(*) as n from (select 1 from products p ${where} limit ${EXACT_TOTAL_LIMIT + 1}) t`,
  );
  const n = Number(bounded.rows[0]?.n ?? 0);
  if (n <= EXACT_TOTAL_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(n, estimated), estimate: true };
}

export async function anyFullTextMatch(db: Db, search: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from products p where p.search_vector @@ ${tsQuery(search)} limit 1`,
  );
  return result.rows.length > 0;
}

export async function countByCategory(db: Db, filter: ProductFilter, mode: SearchMode) {
  const result = await db.execute<{ id: number; name: string; slug: string; product_count: number }>(sql`
    select c.id, c.name, c.slug, coalesce(f.n, 0) as product_count
    from categories c
    left join (
      select p.category_id, count(*) as n from products p ${whereClause(filter, mode, 'category')}
      group by p.category_id
    ) f on f.category_id = c.id
    order by c.name`);
  return result.rows;
}

export async function countByCondition(db: Db, filter: ProductFilter, mode: SearchMode) {
  const result = await db.execute<{ condition: Condition; product_count: number }>(sql`
    select p.condition, count(*) as product_count from products p ${whereClause(filter, mode, 'condition')}
    group by p.condition`);
  return result.rows;
}
