import { z } from 'zod';
import { textSchema } from './text.ts';

/** How a product reaches its buyer (ADR 0016): only `ship` needs an address and has shipping. */
export const FULFILLMENTS = ['ship', 'digital', 'pickup'] as const;
export type Fulfillment = (typeof FULFILLMENTS)[number];

/** The highest flat shipping price a seller may set (the products_shipping_check constraint). */
export const MAX_SHIPPING_CENTS = 100_000;

/** How many saved addresses GET /api/addresses answers (the most recently used first). */
export const SAVED_ADDRESSES_LIMIT = 5;

/** How many a buyer keeps: saving one more forgets the least recently used (`?all=true` lists them). */
export const SAVED_ADDRESSES_KEPT = 20;

/** ISO 3166-1 alpha-2: the 249 officially assigned codes. */
export const COUNTRY_CODES: readonly string[] = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);
const COUNTRY_SET = new Set(COUNTRY_CODES);

/** Runs of spaces become one, so "1  Main St" and "1 Main St" are the same line. */
const oneSpace = (value: string) => value.replace(/\s+/g, ' ');

const requiredLine = (label: string, max: number) =>
  textSchema(label)
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .transform(oneSpace);

/** An optional line: empty or missing is null. */
const optionalLine = (label: string, max: number) =>
  textSchema(label)
    .max(max, `${label} must be at most ${max} characters`)
    .transform(oneSpace)
    .nullish()
    .transform((value) => value || null);

/**
 * Postal codes whose format is well known: the country's pattern (letters in either case) and
 * how the message describes it. Other countries keep the loose check (letters, digits, spaces
 * and hyphens).
 */
const POSTAL_CODE_FORMATS: Readonly<Record<string, { pattern: RegExp; message: string }>> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, message: 'postalCode must be a ZIP code like 12345 or 12345-6789' },
  CA: { pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, message: 'postalCode must be a postal code like K1A 0B1' },
  GB: {
    pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
    message: 'postalCode must be a postcode like SW1A 1AA',
  },
};
const LOOSE_POSTAL_CODE = /^[\p{L}\p{N}][\p{L}\p{N} -]*$/u;

/** Null when the postal code fits the country, else the message for `postalCode`. */
export function postalCodeProblem(postalCode: string, country: string): string | null {
  const format = POSTAL_CODE_FORMATS[country];
  if (format) return format.pattern.test(postalCode) ? null : format.message;
  return LOOSE_POSTAL_CODE.test(postalCode)
    ? null
    : 'postalCode may only have letters, digits, spaces and hyphens';
}

/** Where a shipped product goes, as the buyer types it at checkout (the browser's form and the API). */
export const shippingAddressSchema = z
  .object({
    name: requiredLine('name', 100),
    line1: requiredLine('line1', 200),
    line2: optionalLine('line2', 200),
    city: requiredLine('city', 100),
    region: optionalLine('region', 100),
    postalCode: requiredLine('postalCode', 20),
    country: z
      .string({ error: 'country is required' })
      .trim()
      .toUpperCase()
      .refine((code) => COUNTRY_SET.has(code), { message: 'country must be an ISO 3166-1 alpha-2 code' }),
  })
  .superRefine((address, context) => {
    const problem = postalCodeProblem(address.postalCode, address.country);
    if (problem) context.addIssue({ code: 'custom', path: ['postalCode'], message: problem });
  });
export type ShippingAddressInput = z.input<typeof shippingAddressSchema>;
export type ShippingAddress = z.output<typeof shippingAddressSchema>;

/** The address as answered (a snapshot on a payment or order, or a saved one). */
export const shippingAddressOutSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string(),
  country: z.string(),
});

/** GET /api/addresses: the caller's saved addresses, the most recently used first. */
export const savedAddressSchema = shippingAddressOutSchema.extend({
  id: z.string(),
  lastUsedAt: z.string(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;
export const addressesResponseSchema = z.object({ addresses: z.array(savedAddressSchema) });

/** GET /api/addresses?all=true: every kept address (settings), not only the few checkout offers. */
export const addressesQuerySchema = z.object({
  all: z.enum(['true', 'false'], { error: 'all must be true or false' }).optional(),
});

/** DELETE /api/addresses/:id */
export const addressIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be an address id' }) });
export type AddressesResponse = z.infer<typeof addressesResponseSchema>;

/** An address as it is shown and mailed; `line2` and `region` may be missing. */
export interface AddressParts {
  name: string;
  line1: string;
  line2?: string | null;
  city: string;
  region?: string | null;
  postalCode: string;
  country: string;
}

/**
 * The lines of an address, the one way it is shown everywhere (checkout, settings, orders,
 * sales and the emails): name, street lines, "Springfield, IL 62701", country.
 */
export function addressLines(address: AddressParts): string[] {
  const place = [address.region, address.postalCode].filter(Boolean).join(' ');
  return [
    address.name,
    address.line1,
    address.line2,
    [address.city, place].filter(Boolean).join(', '),
    address.country,
  ].filter((line): line is string => Boolean(line));
}
