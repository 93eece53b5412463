import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Named permissions a token can carry, with what the consent screen says of each. */
export const oauthScopes = pgTable('oauth_scopes', {
  id: text().primaryKey(),
  description: text().notNull(),
});

export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    // shown to its owner in plain text, as the spec's client list does
    secret: text().notNull(),
    redirect: text().notNull(),
    revoked: boolean().notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_clients_user_idx').on(t.userId)],
);

export const oauthAuthCodes = pgTable(
  'oauth_auth_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    // SHA-256 of the code; the code itself is never stored
    codeHash: text('code_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    scopes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    codeChallengeMethod: text('code_challenge_method').notNull().default('S256'),
    usedAt: timestamp('used_at', { withTimezone: true }),
    // set when the code was presented again: tokens from it are revoked, and none may be saved after
    replayedAt: timestamp('replayed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_auth_codes_client_idx').on(t.clientId)],
);

export const oauthAccessTokens = pgTable(
  'oauth_access_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    // null for client_credentials tokens
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    authCodeId: uuid('auth_code_id').references(() => oauthAuthCodes.id, { onDelete: 'set null' }),
    scopes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    revoked: boolean().notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_access_tokens_user_idx').on(t.userId), index('oauth_access_tokens_client_idx').on(t.clientId)],
);

export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    accessTokenId: uuid('access_token_id')
      .notNull()
      .references(() => oauthAccessTokens.id, { onDelete: 'cascade' }),
    // every refresh token descended from one authorization shares a family; reuse revokes it all
    familyId: uuid('family_id').notNull(),
    revoked: boolean().notNull().default(false),
    usedAt: timestamp('used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_refresh_tokens_family_idx').on(t.familyId)],
);

export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    scopes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    revoked: boolean().notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('personal_access_tokens_user_idx').on(t.userId)],
);
