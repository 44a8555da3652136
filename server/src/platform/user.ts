import type { User } from '@streamshop/contract/auth.ts';
import type { users } from '../db/schema.ts';

/** The public shape of an account: never the password hash. */
export function toUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    handle: row.handle,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    businessName: row.businessName,
    profileImageUrl: row.profileImageUrl,
    plan: row.plan,
    createdAt: row.createdAt.toISOString(),
  };
}
