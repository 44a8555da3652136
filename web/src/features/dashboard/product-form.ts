import type { Product, ProductBody } from '@streamshop/contract/catalog.ts';
import type { Condition } from '@streamshop/contract/constants.ts';
import { centsToDollars, dollarsToCents } from '@streamshop/contract/money.ts';

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
}

export const DEFAULT_STOCK = 1;

export function emptyProductForm(): ProductFormValues {
  return {
    title: '',
    description: '',
    price: '',
    stock: String(DEFAULT_STOCK),
    condition: 'new',
    categoryId: '',
    imageUrl: '',
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
  if (Number.isFinite(price) && price < 0) problems.price = 'Price must be 0 or more';
  return problems;
}
