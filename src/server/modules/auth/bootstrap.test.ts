import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { users } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../../tests/support/test-app.ts';
import { ensureAdministrator } from './service.ts';
import { verifyPassword } from '../../../shared/password.ts';

let database: Database;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(() => database.close());

describe('the first Administrator', () => {
  it('is made from ADMIN_EMAIL and ADMIN_PASSWORD, with an argon2id hash', async () => {
    const result = await ensureAdministrator(database.db, {
      email: 'boss@example.test',
      password: 'a long enough password',
    });
    expect(result).toEqual({ created: true, email: 'boss@example.test', generatedPassword: null });
    const [row] = await database.db.select().from(users).where(eq(users.email, 'boss@example.test'));
    expect(row!.userRoleId).toBe(1);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row!.passwordHash!, 'a long enough password')).toBe(true);
  });

  it('gets a strong generated password when none is given', async () => {
    const result = await ensureAdministrator(database.db, {});
    expect(result.created).toBe(true);
    if (!result.created) return;
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    const [row] = await database.db.select().from(users).where(eq(users.email, result.email));
    expect(await verifyPassword(row!.passwordHash!, result.generatedPassword!)).toBe(true);
  });

  it('is not made again when an Administrator exists', async () => {
    await insertUser(database.db, { email: 'already@example.test', roleId: 1, password: 'whatever-password' });
    expect(
      await ensureAdministrator(database.db, { email: 'boss@example.test', password: 'a long enough password' }),
    ).toEqual({ created: false });
    expect(await database.db.select().from(users)).toHaveLength(1);
  });

  it('promotes an existing account with that email rather than duplicating it', async () => {
    await insertUser(database.db, { email: 'Boss@Example.test', roleId: 3 });
    await ensureAdministrator(database.db, { email: 'boss@example.test', password: 'a long enough password' });
    const rows = await database.db.select().from(users);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userRoleId).toBe(1);
  });
});
