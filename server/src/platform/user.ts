import type { User } from '@streamshop/contract/auth.ts';
import { sql } from 'drizzle-orm';

/** An account as stored (the password hash included: never send it to a client). */
export type UserRow = {
  id: string;
  handle: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  businessName: string | null;
  profileImageUrl: string | null;
  plan: 'free' | 'pro';
  /** The owner proved the email address is theirs. */
  emailVerified: boolean;
  createdAt: Date;
};

/** The users columns under the names of UserRow (`u` is the users table); rows go through toUserRow. */
export const USER_COLUMNS = sql.raw(`u.id, u.handle, u.email, u.password_hash as "passwordHash",
  u.first_name as "firstName", u.last_name as "lastName", u.business_name as "businessName",
  u.profile_image_url as "profileImageUrl", u.plan, u.email_verified_at is not null as "emailVerified",
  u.created_at as "createdAt"`);

/** A row selected with USER_COLUMNS, as it comes from the driver. */
export type UserRecord = Omit<UserRow, 'createdAt'> & { createdAt: Date | string };
export const toUserRow = (row: UserRecord): UserRow => ({ ...row, createdAt: new Date(row.createdAt) });

/** The public shape of an account: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    handle: row.handle,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    businessName: row.businessName,
    profileImageUrl: row.profileImageUrl,
    plan: row.plan,
    emailVerified: row.emailVerified,
    createdAt: row.createdAt.toISOString(),
  };
}
