import type { Product } from '@streamshop/contract/catalog.ts';
import { describe, expect, it } from 'vitest';
import {
  emptyProductForm,
  formValuesToBody,
  productToFormValues,
  validateProductForm,
} from './product-form.ts';

const product: Product = {
  id: '0b7d2c1e-0000-4000-8000-000000000001',
  title: 'Blue Note LP',
  description: 'First press',
  priceCents: 1999,
  condition: 'used',
  categoryId: 3,
  imageUrl: '/media/uploads/a.webp',
  stock: 4,
  fulfillment: 'ship',
  shippingCents: 500,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 'u1', handle: 'ana', businessName: null, profileImageUrl: null, onboarded: false },
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('product form', () => {
  it('prefills edit mode with dollars from cents', () => {
    expect(productToFormValues(product)).toEqual({
      title: 'Blue Note LP',
      description: 'First press',
      price: '19.99',
      stock: '4',
      condition: 'used',
      categoryId: '3',
      imageUrl: '/media/uploads/a.webp',
      fulfillment: 'ship',
      shipping: '5.00',
    });
    expect(productToFormValues({ ...product, priceCents: 1250 }).price).toBe('12.50');
    expect(
      productToFormValues({ ...product, priceCents: 0, description: null, imageUrl: null }),
    ).toMatchObject({
      price: '0.00',
      description: '',
      imageUrl: '',
    });
  });

  it('sends dollars x 100, rounded, as priceCents', () => {
    const values = { ...emptyProductForm(), title: ' Tape ', categoryId: '2' };
    expect(formValuesToBody({ ...values, price: '19.99' }).priceCents).toBe(1999);
    expect(formValuesToBody({ ...values, price: '0.1' }).priceCents).toBe(10);
    expect(formValuesToBody({ ...values, price: '4.005' }).priceCents).toBe(401);
    expect(formValuesToBody({ ...values, price: '1.1' }).priceCents).toBe(110);
    expect(formValuesToBody({ ...values, price: '' }).priceCents).toBe(0);
    expect(formValuesToBody({ ...values, price: 'abc' }).priceCents).toBe(0);
  });

  it('round-trips a product through the form', () => {
    const body = formValuesToBody(productToFormValues(product));
    expect(body).toEqual({
      title: 'Blue Note LP',
      description: 'First press',
      priceCents: 1999,
      condition: 'used',
      categoryId: 3,
      imageUrl: '/media/uploads/a.webp',
      stock: 4,
      fulfillment: 'ship',
      shippingCents: 500,
    });
  });

  it('sends shipping in cents for a shipped product, and none for digital or pickup', () => {
    const values = { ...emptyProductForm(), title: 'Tape', categoryId: '2', price: '10' };
    expect(formValuesToBody({ ...values, shipping: '4.5' })).toMatchObject({
      fulfillment: 'ship',
      shippingCents: 450,
    });
    expect(formValuesToBody({ ...values, shipping: '' }).shippingCents).toBe(0);
    expect(formValuesToBody({ ...values, fulfillment: 'digital', shipping: '4.5' })).toMatchObject({
      fulfillment: 'digital',
      shippingCents: 0,
    });
    expect(validateProductForm({ ...values, shipping: '-1' }).shipping).toBe('Shipping must be 0 or more');
    expect(validateProductForm({ ...values, shipping: '1000.01' }).shipping).toBe(
      'Shipping must be at most $1,000',
    );
    expect(
      validateProductForm({ ...values, fulfillment: 'pickup', shipping: '-1' }).shipping,
    ).toBeUndefined();
  });

  it('trims text, sends blanks as null and defaults a bad stock to 1', () => {
    const body = formValuesToBody({
      ...emptyProductForm(),
      title: '  Lamp ',
      description: '   ',
      imageUrl: ' ',
      stock: 'lots',
      categoryId: '7',
      price: '3',
    });
    expect(body).toMatchObject({ title: 'Lamp', description: null, imageUrl: null, stock: 1, categoryId: 7 });
  });

  it('asks for a title and a category before sending', () => {
    expect(validateProductForm({ ...emptyProductForm(), price: '5' })).toEqual({
      title: 'Title is required',
      categoryId: 'Choose a category',
    });
  });

  it('asks for a price above $0, as checkout cannot sell a $0 product', () => {
    const values = { ...emptyProductForm(), title: 'x', categoryId: '1' };
    expect(validateProductForm(values)).toEqual({ price: 'Price is required' });
    expect(validateProductForm({ ...values, price: '  ' }).price).toBe('Price is required');
    expect(validateProductForm({ ...values, price: '0' }).price).toBe('Price must be more than 0');
    expect(validateProductForm({ ...values, price: '0.004' }).price).toBe('Price must be more than 0');
    expect(validateProductForm({ ...values, price: '-1' }).price).toBe('Price must be more than 0');
    expect(validateProductForm({ ...values, price: '100000.01' }).price).toBe(
      'Price must be at most $100,000',
    );
    expect(validateProductForm({ ...values, price: '0.01' })).toEqual({});
  });

  it('refuses a negative, fractional or blank stock instead of saving 1', () => {
    const values = { ...emptyProductForm(), title: 'x', categoryId: '1', price: '5' };
    expect(validateProductForm({ ...values, stock: '-3' })).toEqual({ stock: 'Stock must be 0 or more' });
    expect(validateProductForm({ ...values, stock: '1.5' }).stock).toBe('Stock must be a whole number');
    expect(validateProductForm({ ...values, stock: '' }).stock).toBe('Stock is required');
    expect(validateProductForm({ ...values, stock: '1000001' }).stock).toBe(
      'Stock must be at most 1,000,000',
    );
    expect(validateProductForm({ ...values, stock: '0' })).toEqual({});
  });
});
