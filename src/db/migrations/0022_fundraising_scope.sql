-- The charity portal's API scope (issue 19): a Charity user's token reads their charity's fundraisers and records what they raised
INSERT INTO "oauth_scopes" ("id", "description") VALUES ('fundraising', 'Follow your charity''s fundraisers and record what they have raised') ON CONFLICT ("id") DO NOTHING;
