ALTER TABLE "countries" ADD COLUMN "passport_months" smallint DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "passport_note" text;--> statement-breakpoint
ALTER TABLE "countries" ADD CONSTRAINT "countries_passport_months_check" CHECK ("countries"."passport_months" between 0 and 24);--> statement-breakpoint
-- Starting values (issue 18): 6 months after return everywhere, 3 for the Schengen area (with
-- Iceland, Norway, Switzerland and Liechtenstein) and its passports issued within 10 years; two
-- blank pages for South Africa. Staff must confirm each with official travel advice (README).
UPDATE countries SET passport_months = 3,
  passport_note = 'Schengen area: valid 3 months after you leave, and issued less than 10 years before the day you arrive.'
WHERE code IN ('AT', 'BE', 'BG', 'HR', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IS', 'IT', 'LV', 'LI', 'LT', 'LU', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'CH');
--> statement-breakpoint
UPDATE countries SET passport_note = 'At least 2 blank pages.' WHERE code = 'ZA';
