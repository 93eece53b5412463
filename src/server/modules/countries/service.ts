import { asc, eq } from 'drizzle-orm';
import type { PassportRule, passportRuleInputSchema } from '../../../contract/countries.ts';
import type { z } from 'zod';
import type { Db } from '../../../db/client.ts';
import { countries } from '../../../db/schema/index.ts';
import { audit, describeChanges, diff } from '../../audit/audit.ts';
import { HttpError } from '../../errors.ts';

/** countries.id is a smallint: an id beyond it is a country that cannot exist (and must not reach the database) */
const SMALLINT_MAX = 32_767;
const notFound = () => new HttpError(404, 'Country not found');

const ruleColumns = {
  country_id: countries.id,
  code: countries.code,
  name: countries.name,
  months: countries.passportMonths,
  note: countries.passportNote,
};

/** Passport rules by destination: months of validity after the return, and a note. */
export class CountryService {
  constructor(private readonly db: Db) {}

  passportRules(): Promise<PassportRule[]> {
    return this.db.select(ruleColumns).from(countries).orderBy(asc(countries.name));
  }

  async passportRule(id: number): Promise<PassportRule> {
    if (id > SMALLINT_MAX) throw notFound();
    const [rule] = await this.db.select(ruleColumns).from(countries).where(eq(countries.id, id));
    if (!rule) throw notFound();
    return rule;
  }

  /** Changes a destination's rule: every passport check of its trips follows at once. An event in the history. */
  async setPassportRule(id: number, input: z.output<typeof passportRuleInputSchema>): Promise<PassportRule> {
    if (id > SMALLINT_MAX) throw notFound();
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(countries).where(eq(countries.id, id)).for('update');
      if (!before) throw notFound();
      await tx
        .update(countries)
        .set({ passportMonths: input.months, passportNote: input.note })
        .where(eq(countries.id, id));
      const changes = diff({
        passport_months: [before.passportMonths, input.months],
        passport_note: [before.passportNote, input.note],
      });
      if (Object.keys(changes).length) {
        await audit(tx, {
          action: 'country.passport_rule_changed',
          subject: { type: 'country', id },
          changes,
          summary: describeChanges(changes, `the passport rule for ${before.name}`),
        });
      }
      return { country_id: before.id, code: before.code, name: before.name, months: input.months, note: input.note };
    });
  }
}
