/**
 * External product sites. The spec names the links (Drop Mode, product logos) but not their
 * addresses, so these are placeholders on the reserved .example domain until the real ones are known.
 */
export const DROP_MODE_URL = 'https://dropmode.example/';

export const PRODUCT_SITES = [
  { name: 'Drop Mode', href: DROP_MODE_URL, mark: 'DM' },
  { name: 'Stream Disc', href: 'https://streamdisc.example/', mark: 'SD' },
] as const;
