import { MAX_PRICE_CENTS, type Product, type ProductBody } from '@streamshop/contract/catalog.ts';
import type { Condition } from '@streamshop/contract/constants.ts';
import { centsToDollars, dollarsToCents } from '@streamshop/contract/money.ts';
import { type Fulfillment, MAX_SHIPPING_CENTS } from '@streamshop/contract/shipping.ts';

/** The Add/Edit Product dialog's fields as typed (price in dollars). */
export interface ProductFormValues {
  title: string;
  description: string;
  /** Dollars, as typed in the number field (step 0.01). */
  price: string;
  stock: string;
  condition: Condition;
  /** A category id, or '' before one is chosen. */
  categoryId: string;
  imageUrl: string;
  fulfillment: Fulfillment;
  /** Dollars, flat per order; only for products that ship. */
  shipping: string;
}

export const DEFAULT_STOCK = 1;
const MAX_STOCK = 1_000_000;

export function emptyProductForm(): ProductFormValues {
  return {
    title: '',
    description: '',
    price: '',
    stock: String(DEFAULT_STOCK),
    condition: 'new',
    categoryId: '',
    imageUrl: '',
    fulfillment: 'ship',
    shipping: '',
  };
}

/** Edit mode: the product's values, its price converted from cents to dollars ("19.99"). */
export function productToFormValues(product: Product): ProductFormValues {
  return {
    title: product.title,
    description: product.description ?? '',
    price: centsToDollars(product.priceCents).toFixed(2),
    stock: String(product.stock),
    condition: product.condition,
    categoryId: String(product.categoryId),
    imageUrl: product.imageUrl ?? '',
    fulfillment: product.fulfillment,
    shipping: product.shippingCents > 0 ? centsToDollars(product.shippingCents).toFixed(2) : '',
  };
}

function parseStock(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_STOCK;
}

/**
 * The body of POST/PUT /api/products: priceCents is dollars x 100 rounded (a non-numeric price
 * becomes 0, spec section 5); blank description and image URL are sent as null.
 */
export function formValuesToBody(values: ProductFormValues): ProductBody {
  return {
    title: values.title.trim(),
    description: values.description.trim() || null,
    priceCents: dollarsToCents(values.price),
    condition: values.condition,
    categoryId: Number(values.categoryId),
    imageUrl: values.imageUrl.trim() || null,
    stock: parseStock(values.stock),
    fulfillment: values.fulfillment,
    // Blank shipping is free shipping; nothing ships for digital and pickup products.
    shippingCents: values.fulfillment === 'ship' ? dollarsToCents(values.shipping) : 0,
  };
}

/** Checks the browser can do before sending; the server validates everything again. */
export function validateProductForm(
  values: ProductFormValues,
): Partial<Record<keyof ProductFormValues, string>> {
  const problems: Partial<Record<keyof ProductFormValues, string>> = {};
  if (!values.title.trim()) problems.title = 'Title is required';
  if (!values.categoryId) problems.categoryId = 'Choose a category';
  const price = Number.parseFloat(values.price);
  if (!values.price.trim() || !Number.isFinite(price)) problems.price = 'Price is required';
  else if (dollarsToCents(price) <= 0) problems.price = 'Price must be more than 0';
  else if (dollarsToCents(price) > MAX_PRICE_CENTS) problems.price = 'Price must be at most $100,000';
  const stock = Number(values.stock);
  if (!values.stock.trim()) problems.stock = 'Stock is required';
  else if (!Number.isInteger(stock)) problems.stock = 'Stock must be a whole number';
  else if (stock < 0) problems.stock = 'Stock must be 0 or more';
  else if (stock > MAX_STOCK) problems.stock = 'Stock must be at most 1,000,000';
  if (values.fulfillment === 'ship' && values.shipping.trim()) {
    const shipping = Number.parseFloat(values.shipping);
    if (!Number.isFinite(shipping) || shipping < 0) problems.shipping = 'Shipping must be 0 or more';
    else if (dollarsToCents(shipping) > MAX_SHIPPING_CENTS)
      problems.shipping = 'Shipping must be at most $1,000';
  }
  return problems;
}
