import type { Db } from '../client.ts';
export async function seedDemo(_db: Db, _opts: { dataDir: string }): Promise<{ bookings: number; trips: number } | null> {
  return null;
}
