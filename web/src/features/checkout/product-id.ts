/** Product ids are UUIDs; anything else in /checkout/:productId is a broken link. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isProductId(value: string | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}
