import { hashPassword } from '../../shared/password.ts';
import type { Db } from '../client.ts';
import { users } from '../schema/index.ts';

export type UserSeed = {
  email: string;
  firstName?: string;
  lastName?: string;
  password?: string | null;
  /** 1 Administrator, 2 Charity, 3 End User */
  roleId?: number;
  passwordHash?: string | null;
  /** a Charity user's charity */
  charityId?: number | null;
};

export async function insertUser(db: Db, seed: UserSeed) {
  const passwordHash = seed.passwordHash ?? (seed.password ? await hashPassword(seed.password) : null);
  const [row] = await db
    .insert(users)
    .values({
      email: seed.email,
      firstName: seed.firstName ?? 'Test',
      lastName: seed.lastName ?? 'User',
      passwordHash,
      userRoleId: seed.roleId ?? 3,
      charityId: seed.charityId ?? null,
    })
    .returning();
  return row!;
}
