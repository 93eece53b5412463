-- No route takes a token for account changes (they set passwords and roles, so a token could
-- widen its own access): the scope that promised them goes, and tokens that carried it lose it.
UPDATE "personal_access_tokens" SET "scopes" = array_remove("scopes", 'users:write');--> statement-breakpoint
UPDATE "oauth_access_tokens" SET "scopes" = array_remove("scopes", 'users:write');--> statement-breakpoint
UPDATE "oauth_auth_codes" SET "scopes" = array_remove("scopes", 'users:write');--> statement-breakpoint
DELETE FROM "oauth_scopes" WHERE "id" = 'users:write';
