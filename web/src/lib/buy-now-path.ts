import { withReturnPath } from '@streamshop/contract/return-path.ts';

/**
 * Where Buy Now leads: the checkout for a signed-in buyer; for anyone else sign-in, which comes
 * back to that checkout afterwards (`/signin?next=/checkout/<id>`).
 */
export function buyNowPath(productId: string, signedIn: boolean): string {
  const checkout = `/checkout/${productId}`;
  return signedIn ? checkout : withReturnPath('/signin', checkout);
}
