import { DISC_PRICE_TIERS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';

/** The tier table as rows for display: "1-9" $5.00, ..., "100+" $2.50. */
export const priceTierRows = DISC_PRICE_TIERS.map((tier) => ({
  range: tier.maxQuantity === null ? `${tier.minQuantity}+` : `${tier.minQuantity}-${tier.maxQuantity}`,
  price: formatCents(tier.unitPriceCents),
  minQuantity: tier.minQuantity,
  maxQuantity: tier.maxQuantity,
}));
