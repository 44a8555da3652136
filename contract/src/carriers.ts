/**
 * The carriers a seller picks from when an order ships (POST /api/orders/:id/ship), stored as
 * their codes. Orders shipped before the list hold what the seller typed ('UPS', 'usps',
 * 'Hermes'): `carrierName` and `trackingUrl` read both.
 */
export const CARRIERS = [
  'usps',
  'ups',
  'fedex',
  'dhl',
  'royal_mail',
  'canada_post',
  'australia_post',
  'other',
] as const;
export type Carrier = (typeof CARRIERS)[number];

/** How people read each carrier, in the list and wherever an order shows it. */
export const CARRIER_NAMES: Record<Carrier, string> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  royal_mail: 'Royal Mail',
  canada_post: 'Canada Post',
  australia_post: 'Australia Post',
  other: 'Other',
};

const TRACKING_PAGES: Record<Exclude<Carrier, 'other'>, (number: string) => string> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${n}`,
  royal_mail: (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`,
  canada_post: (n) => `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${n}`,
  australia_post: (n) => `https://auspost.com.au/mypost/track/details/${n}`,
};

/** 'Royal Mail', 'royal_mail', ' royal-mail ' -> 'royalmail': how a stored name is compared. */
const comparable = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

const BY_SPELLING = new Map<string, Carrier>(
  CARRIERS.flatMap((code) => [
    [comparable(code), code],
    [comparable(CARRIER_NAMES[code]), code],
  ]),
);

/** The carrier a stored value names (a code, or a known name typed before the list), if any. */
export function carrierCode(stored: string | null | undefined): Carrier | null {
  if (!stored) return null;
  return BY_SPELLING.get(comparable(stored.trim())) ?? null;
}

/** The carrier as people read it: 'usps' and 'usps ' -> 'USPS'; a name we do not know, as given. */
export function carrierName(stored: string | null | undefined): string | null {
  if (!stored?.trim()) return null;
  const code = carrierCode(stored);
  return code ? CARRIER_NAMES[code] : stored.trim();
}

/** The carrier's tracking page for the number, or null for Other and a carrier we do not know. */
export function trackingUrl(carrier: string | null, trackingNumber: string | null): string | null {
  const code = carrierCode(carrier);
  if (!code || code === 'other' || !trackingNumber) return null;
  return TRACKING_PAGES[code](encodeURIComponent(trackingNumber.replaceAll(' ', '')));
}
