import { base, en, en_GB, Faker } from '@faker-js/faker';
import { and, count, eq, gt, inArray, ne } from 'drizzle-orm';
import { hashPassword } from '../../shared/password.ts';
import type { Db, Tx } from '../client.ts';
import { createFileStore, storeFile, type FileStore } from '../../shared/storage/index.ts';
import {
  bookingAddons,
  bookingCustomFieldAnswers,
  bookingNotes,
  bookings,
  charities,
  discounts,
  invoiceAddons,
  invoiceItems,
  invoices,
  schoolGroups,
  transactions,
  tripAddons,
  tripCustomFields,
  tripDocuments,
  teams,
  trips,
  users,
} from '../schema/index.ts';
import { makeLogoPng, makePdf } from './images.ts';
import { FEMALE_NAMES, MALE_NAMES, SURNAMES } from './names.ts';

/**
 * The demo office: a realistic, deterministic operator (the same data every run, with dates
 * placed around the day it is loaded). Loaded on an empty database unless SEED_DEMO=0 or
 * NODE_ENV=production. Everything goes in one transaction: all of it or none.
 */
export type DemoSummary = { bookings: number; trips: number; charities: number; invoices: number };

const DAY = 86_400_000;

type CharitySeed = [name: string, type: number, url: string | null, logo: boolean];
const CHARITIES: CharitySeed[] = [
  ['Paws & Whiskers Rescue', 1, 'https://www.pawsandwhiskers.org.uk', true],
  ['Hedgehog Haven Trust', 1, null, false],
  ['Veterans Forward', 2, 'https://www.veteransforward.org.uk', true],
  ['Royal Navy Families Fund', 2, null, false],
  ['Bright Futures for Children', 3, 'https://www.brightfutures.org.uk', true],
  ["Little Lights Children's Trust", 3, 'https://www.littlelights.org.uk', false],
  ['Heartbeat Research UK', 4, 'https://www.heartbeatresearch.org.uk', true],
  ['Breathe Easy Lung Foundation', 4, null, false],
  ['St Columba Hospice', 5, 'https://www.stcolumbahospice.org.uk', true],
  ['Meadowbank Hospice', 5, null, false],
  ['Clean Water Worldwide', 6, 'https://www.cleanwaterworldwide.org', true],
  ['Medics Without Frontiers UK', 6, null, false],
  ['Riverside Community Kitchen', 7, 'https://www.riversidekitchen.org.uk', false],
  ['Northfield Youth Club', 7, null, false],
  ['Wild Moorland Conservation', 8, 'https://www.wildmoorland.org.uk', true],
  ['The Lighthouse Library Project', 8, null, false],
];

type TripSeed = {
  name: string;
  country: number;
  type: 'charity' | 'open' | 'school';
  level: number;
  status: 'open' | 'closed' | 'full' | 'cancelled';
  /** days from today to departure */
  in: number;
  days: number;
  deposit: number;
  cost: number;
  archived?: boolean;
  deleted?: boolean;
  charity?: number;
  bookings: number;
};

const TRIPS: TripSeed[] = [
  {
    name: 'Kilimanjaro Summit Trek',
    country: 834,
    type: 'charity',
    level: 5,
    status: 'open',
    in: 64,
    days: 10,
    deposit: 350,
    cost: 2495,
    bookings: 38,
    charity: 8,
  },
  {
    name: 'Great Wall of China Trek',
    country: 156,
    type: 'charity',
    level: 3,
    status: 'open',
    in: 118,
    days: 9,
    deposit: 300,
    cost: 2195,
    bookings: 34,
    charity: 2,
  },
  {
    name: 'Machu Picchu Inca Trail',
    country: 604,
    type: 'open',
    level: 4,
    status: 'full',
    in: 41,
    days: 12,
    deposit: 400,
    cost: 2895,
    bookings: 30,
  },
  {
    name: 'Sahara Desert Trek',
    country: 504,
    type: 'charity',
    level: 3,
    status: 'open',
    in: 150,
    days: 7,
    deposit: 250,
    cost: 1695,
    bookings: 26,
    charity: 10,
  },
  {
    name: 'Iceland Fire & Ice Trek',
    country: 352,
    type: 'open',
    level: 3,
    status: 'open',
    in: 201,
    days: 6,
    deposit: 300,
    cost: 1995,
    bookings: 22,
  },
  {
    name: 'Everest Base Camp Trek',
    country: 524,
    type: 'open',
    level: 5,
    status: 'open',
    in: 262,
    days: 16,
    deposit: 450,
    cost: 3295,
    bookings: 20,
  },
  {
    name: 'Vietnam to Cambodia Cycle',
    country: 704,
    type: 'charity',
    level: 4,
    status: 'open',
    in: 330,
    days: 11,
    deposit: 350,
    cost: 2595,
    bookings: 18,
    charity: 6,
  },
  {
    name: 'Petra & Wadi Rum Trek',
    country: 400,
    type: 'charity',
    level: 2,
    status: 'closed',
    in: 24,
    days: 8,
    deposit: 300,
    cost: 1895,
    bookings: 28,
    charity: 4,
  },
  {
    name: 'Cuba Cycle Challenge',
    country: 192,
    type: 'open',
    level: 3,
    status: 'cancelled',
    in: 95,
    days: 9,
    deposit: 300,
    cost: 2095,
    bookings: 8,
  },
  {
    name: 'Year 10 Costa Rica Expedition',
    country: 188,
    type: 'school',
    level: 1,
    status: 'open',
    in: 180,
    days: 14,
    deposit: 500,
    cost: 2795,
    bookings: 32,
  },
  {
    name: 'Sixth Form Borneo Jungle Project',
    country: 458,
    type: 'school',
    level: 2,
    status: 'open',
    in: 240,
    days: 21,
    deposit: 500,
    cost: 3450,
    bookings: 24,
  },
  {
    name: 'Ben Nevis Night Climb',
    country: 826,
    type: 'charity',
    level: 2,
    status: 'closed',
    in: -40,
    days: 2,
    deposit: 95,
    cost: 395,
    bookings: 26,
    charity: 0,
  },
  {
    name: 'Atlas Mountains Trek',
    country: 504,
    type: 'charity',
    level: 3,
    status: 'closed',
    in: -120,
    days: 6,
    deposit: 250,
    cost: 1595,
    bookings: 24,
    charity: 14,
  },
  {
    name: 'Year 9 Iceland Geography Trip',
    country: 352,
    type: 'school',
    level: 1,
    status: 'closed',
    in: -210,
    days: 5,
    deposit: 300,
    cost: 1195,
    bookings: 22,
  },
  {
    name: 'Namibia Desert Cycle 2024',
    country: 516,
    type: 'charity',
    level: 4,
    status: 'closed',
    in: -420,
    days: 10,
    deposit: 350,
    cost: 2495,
    bookings: 14,
    archived: true,
    charity: 12,
  },
  {
    name: 'Snowdon Sunrise Trek 2024',
    country: 826,
    type: 'open',
    level: 2,
    status: 'closed',
    in: -520,
    days: 2,
    deposit: 75,
    cost: 295,
    bookings: 10,
    archived: true,
  },
  {
    name: 'Transylvania Trek (withdrawn)',
    country: 642,
    type: 'open',
    level: 3,
    status: 'cancelled',
    in: 300,
    days: 8,
    deposit: 300,
    cost: 1795,
    bookings: 3,
    deleted: true,
  },
];

const ADDONS: Array<[string, number]> = [
  ['Single room supplement', 295],
  ['Travel insurance', 85],
  ['Extra night in hotel', 120],
  ['Safari extension (3 days)', 650],
  ['Airport lounge pass', 35],
  ['Bike hire upgrade', 150],
];

const CUSTOM_FIELDS: Array<[string, string | null]> = [
  ['T-shirt size', 'S, M, L or XL: we print the team shirts a month before departure.'],
  ['Fundraising page URL', 'The link to your JustGiving or GoFundMe page.'],
  ['Emergency contact while abroad', null],
  ['Sleeping bag hire', 'Yes or no: hire is £25, paid on arrival.'],
];

const DIETARY = ['Vegetarian', 'Vegan', 'Gluten free', 'No pork', 'Nut allergy', 'Lactose intolerant'];
const MEDICATION = ['Inhaler (asthma)', 'Antihistamines', 'Insulin', 'EpiPen', 'Levothyroxine'];
const NOTE_TEXTS = [
  '<p>Called the traveller about their passport: <strong>renewal is booked</strong> for next week.</p>',
  '<p>Asked to share a room with a friend from the same fundraising group.</p>',
  '<p>Payment plan agreed: balance in <em>three monthly instalments</em>.</p>',
  '<p>Sent the kit list again by email; the first one went to spam.</p>',
  '<ul><li>Dietary form received</li><li>Insurance details still to come</li></ul>',
  '<p>Has trained on Snowdon twice and feels ready. Wants an early flight if possible.</p>',
];

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** `files`: where its logos and documents go (default: DATA_DIR/files of `dataDir`). */
export async function seedDemo(
  db: Db,
  opts: { dataDir: string; files?: FileStore; today?: Date },
): Promise<DemoSummary | null> {
  const [existing] = await db.select({ n: count() }).from(trips);
  if ((existing?.n ?? 0) > 0) return null;
  // an instance of its own, so nothing else that uses faker can change what it makes
  const faker = new Faker({ locale: [en_GB, en, base], seed: 2026 });
  const today = new Date(opts.today ?? Date.now());
  today.setUTCHours(0, 0, 0, 0);
  const days = (n: number) => new Date(today.getTime() + n * DAY);

  // files are written before the transaction; an unused file costs nothing, a missing one would
  const files = opts.files ?? createFileStore({ driver: 'local', dataDir: opts.dataDir });
  const logos = await Promise.all(
    CHARITIES.map(([, , , logo], i) =>
      logo ? storeFile(files, 'logos', makeLogoPng(240, 120, colour(i)), 'png') : null,
    ),
  );
  const staffHash = await hashPassword(faker.string.alphanumeric(24));

  return db.transaction(async (tx) => {
    const charityRows = await tx
      .insert(charities)
      .values(
        CHARITIES.map(([name, type, url], i) => ({
          name,
          charityTypeId: type,
          url,
          logoFile: logos[i],
          createdAt: days(-700 + i),
          updatedAt: days(-400 + i),
        })),
      )
      .returning({ id: charities.id });

    // people: staff of every role; travellers are End Users made with their bookings
    const staff = await tx
      .insert(users)
      .values([
        {
          firstName: 'Priya',
          lastName: 'Shah',
          email: 'priya.shah@tripdesk.test',
          userRoleId: 1,
          passwordHash: staffHash,
          createdAt: days(-720),
          updatedAt: days(-360),
        },
        {
          firstName: 'Tom',
          lastName: 'Hughes',
          email: 'tom.hughes@tripdesk.test',
          userRoleId: 1,
          passwordHash: staffHash,
          createdAt: days(-720),
          updatedAt: days(-360),
        },
        {
          firstName: 'Grace',
          lastName: 'Okafor',
          email: 'grace@brightfutures.test',
          userRoleId: 2,
          charityId: charityRows[4]!.id,
          createdAt: days(-720),
          updatedAt: days(-360),
        },
        {
          firstName: 'Martin',
          lastName: 'Doyle',
          email: 'martin@stcolumbahospice.test',
          userRoleId: 2,
          charityId: charityRows[8]!.id,
          createdAt: days(-720),
          updatedAt: days(-360),
        },
      ])
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName });

    let bookingTotal = 0;
    let invoiceTotal = 0;
    let invoiceNo = 1000;
    for (const [ti, t] of TRIPS.entries()) {
      const departure = days(t.in);
      const [trip] = await tx
        .insert(trips)
        .values({
          name: `${t.name}${/\d{4}|\(/.test(t.name) ? '' : ' ' + departure.getUTCFullYear()}`,
          countryId: t.country,
          charityId: t.charity === undefined ? null : charityRows[t.charity]!.id,
          departureDate: iso(departure),
          returnDate: iso(days(t.in + t.days - 1)),
          type: t.type,
          level: t.level,
          status: t.status,
          depositPence: t.deposit * 100,
          costPence: t.cost * 100,
          requirePassport: t.country !== 826,
          funding: t.type === 'school' ? 'self' : 'both',
          // places: a full trip has about as many as its bookings, the others room to spare
          capacity: t.status === 'full' ? Math.round(t.bookings * 0.9) : Math.ceil((t.bookings + 8) / 5) * 5,
          archivedAt: t.archived ? days(t.in + t.days + 30) : null,
          deletedAt: t.deleted ? days(-5) : null,
          createdAt: days(Math.min(t.in - 300, -30)),
          updatedAt: days(Math.min(t.in - 300, -30)),
        })
        .returning();
      const tripId = trip!.id;

      const addonRows = await tx
        .insert(tripAddons)
        .values(
          faker.helpers
            .arrayElements(ADDONS, { min: 1, max: 3 })
            .map(([name, price]) => ({ tripId, name, pricePence: price * 100, createdAt: trip!.createdAt })),
        )
        .returning();
      const fieldRows = await tx
        .insert(tripCustomFields)
        .values(
          faker.helpers
            .arrayElements(CUSTOM_FIELDS, { min: 1, max: 3 })
            .map(([label, note], i) => ({ tripId, label, note, sortOrder: i, createdAt: trip!.createdAt })),
        )
        .returning();
      if (ti % 2 === 0) {
        const dossier = await storeFile(
          files,
          'documents',
          makePdf(`${trip!.name}: trip dossier`, [
            'Day by day itinerary, meeting point and flight times.',
            'Kit list and training plan.',
          ]),
          'pdf',
        );
        await tx.insert(tripDocuments).values([
          {
            tripId,
            name: 'Trip dossier',
            filename: 'trip-dossier.pdf',
            storedFile: dossier,
            mimeType: 'application/pdf',
            sizeBytes: 900,
            uploadedAt: days(-20),
            createdAt: days(-30),
          },
          { tripId, name: 'Kit list', createdAt: days(-30) },
        ]);
      }

      const rows = emptyTripRows();
      for (let b = 0; b < t.bookings; b++) {
        const school = t.type === 'school';
        const sex = faker.helpers.arrayElement(['female', 'male'] as const);
        const firstName = faker.helpers.arrayElement(sex === 'female' ? FEMALE_NAMES : MALE_NAMES);
        const lastName = faker.helpers.arrayElement(SURNAMES);
        const provider = faker.helpers.arrayElement(['example.com', 'example.org', 'example.net']);
        // unique by construction: one traveller account per demo booking
        const email = `${firstName}.${lastName}${bookingTotal + 1}@${provider}`
          .toLowerCase()
          .replace(/[^a-z0-9.@-]/g, '');
        const k = rows.users.length;
        rows.users.push({
          firstName,
          lastName,
          email,
          userRoleId: 3,
          createdAt: days(Math.min(t.in - 200, -1)),
          updatedAt: days(Math.min(t.in - 200, -1)),
        });
        const createdAt = new Date(
          departure.getTime() -
            faker.number.int({ min: 20, max: 330 }) * DAY -
            faker.number.int({ min: 0, max: DAY - 1 }),
        );
        const received =
          createdAt > today ? new Date(today.getTime() - faker.number.int({ min: 1, max: 60 }) * DAY) : createdAt;
        const status =
          t.status === 'cancelled' || t.deleted
            ? 'cancelled'
            : faker.helpers.weightedArrayElement([
                { weight: 62, value: 'confirmed' },
                { weight: 30, value: 'provisional' },
                { weight: 8, value: 'cancelled' },
              ]);
        const returnDate = days(t.in + t.days - 1);
        const passport = faker.helpers.weightedArrayElement([
          { weight: 14, value: 'missing' },
          { weight: 6, value: 'expired' },
          { weight: 10, value: 'expires' },
          { weight: 70, value: 'ok' },
        ]);
        const expiry =
          passport === 'missing'
            ? null
            : passport === 'expired'
              ? new Date(returnDate.getTime() - faker.number.int({ min: 5, max: 400 }) * DAY)
              : passport === 'expires'
                ? new Date(returnDate.getTime() + faker.number.int({ min: 1, max: 170 }) * DAY)
                : new Date(returnDate.getTime() + faker.number.int({ min: 200, max: 3000 }) * DAY);
        const hasMedical = faker.number.int(100) < 16;
        const dob = school
          ? faker.date.birthdate({ mode: 'age', min: 14, max: 17, refDate: departure })
          : faker.date.birthdate({ mode: 'age', min: 19, max: 68, refDate: departure });
        const roomNo = Math.floor(b / 2) + 1;
        rows.bookings.push({
          ref: `TD-${faker.string.fromCharacters('23456789ABCDEFGHJKMNPQRSTUVWXYZ', 6)}`,
          tripId,
          charityId: t.type === 'charity' ? (trip!.charityId ?? faker.helpers.arrayElement(charityRows).id) : null,
          status,
          travelBasis: faker.number.int(100) < 15 ? 'landonly' : 'flights',
          travelBasisDiscountPence: 0,
          fundingType: school ? 'self' : faker.helpers.arrayElement(['free', 'flexi', 'self', 'fundraise'] as const),
          formComplete: status === 'confirmed' ? faker.number.int(100) < 80 : false,
          depositPaymentDate:
            status === 'confirmed'
              ? iso(
                  new Date(Math.min(today.getTime(), received.getTime() + faker.number.int({ min: 0, max: 10 }) * DAY)),
                )
              : null,
          title: school
            ? sex === 'female'
              ? 'Miss'
              : 'Mr'
            : faker.helpers.arrayElement(sex === 'female' ? ['Ms', 'Mrs', 'Miss', 'Dr'] : ['Mr', 'Dr']),
          firstName,
          lastName,
          preferredName:
            faker.number.int(100) < 20
              ? faker.helpers.arrayElement(sex === 'female' ? FEMALE_NAMES : MALE_NAMES)
              : null,
          email,
          mobile: '07' + faker.string.numeric(9),
          address1: faker.location.streetAddress(),
          address2: faker.number.int(100) < 30 ? faker.location.secondaryAddress() : null,
          address3: faker.location.city(),
          address4: faker.location.county(),
          postCode: faker.location.zipCode(),
          gender: sex,
          dateOfBirth: iso(dob),
          shareWith:
            faker.number.int(100) < 25
              ? `${faker.helpers.arrayElement([...FEMALE_NAMES, ...MALE_NAMES])} ${faker.helpers.arrayElement(SURNAMES)}`
              : null,
          doubleRoom: faker.number.int(100) < 12,
          roomType: faker.helpers.arrayElement(['Twin', 'Twin', 'Double', 'Single', 'Triple']),
          roomRef: status === 'confirmed' ? `R${String(roomNo).padStart(2, '0')}` : null,
          passportNumber: passport === 'missing' ? null : faker.string.numeric(9),
          passportIssueDate: expiry ? iso(new Date(expiry.getTime() - 10 * 365 * DAY)) : null,
          passportExpiryDate: expiry ? iso(expiry) : null,
          asOnPassport: true,
          insuranceCompany:
            faker.number.int(100) < 70
              ? faker.helpers.arrayElement(['Aviva', 'Direct Line', 'Staysure', 'Battleface', 'True Traveller'])
              : null,
          insurancePolicyNumber: faker.string.alphanumeric({ length: 10, casing: 'upper' }),
          insuranceTelephone: '0800 ' + faker.string.numeric(3) + ' ' + faker.string.numeric(4),
          nokName: `${faker.helpers.arrayElement([...FEMALE_NAMES, ...MALE_NAMES])} ${lastName}`,
          nokRelationship: faker.helpers.arrayElement(
            school ? ['Mother', 'Father', 'Guardian'] : ['Partner', 'Mother', 'Father', 'Sister', 'Brother', 'Friend'],
          ),
          nokEmail: `${lastName.toLowerCase().replace(/[^a-z]/g, '')}.family${bookingTotal}@example.org`,
          nokTelephone: '07' + faker.string.numeric(9),
          nokAddress: `${faker.location.streetAddress()}, ${faker.location.city()} ${faker.location.zipCode()}`,
          medicalConditions: hasMedical,
          dietary: faker.number.int(100) < 25 ? faker.helpers.arrayElement(DIETARY) : null,
          medication: hasMedical ? faker.helpers.arrayElement(MEDICATION) : null,
          medicalDetail: hasMedical
            ? faker.helpers.arrayElement([
                'Mild asthma, well controlled.',
                'Type 1 diabetes.',
                'Hay fever in summer.',
                'Previous knee surgery (2019).',
              ])
            : null,
          additionalInfo: faker.number.int(100) < 10 ? 'Would like to fly from Manchester if possible.' : null,
          referredBy: faker.helpers.arrayElement([
            'Facebook',
            'A friend',
            'Charity newsletter',
            'Google',
            'Instagram',
            null,
          ]),
          previousTrips: faker.number.int(100) < 20 ? faker.helpers.arrayElement(TRIPS).name : null,
          fitnessTraining: faker.helpers.arrayElement([
            'Walking at weekends',
            'Gym three times a week',
            'Running club',
            'Cycling to work',
            null,
          ]),
          termsAcceptedAt: received,
          createdAt: received,
          updatedAt: received,
        });
        bookingTotal += 1;

        const chosen =
          faker.number.int(100) < 35 ? faker.helpers.arrayElements(addonRows, { min: 1, max: addonRows.length }) : [];
        const addonsAt = rows.addons.length;
        rows.addons.push(...chosen.map((a) => ({ k, addonId: a.id, pricePence: a.pricePence, createdAt: received })));
        const answers = fieldRows
          .filter(() => faker.number.int(100) < 70)
          .map((f) => ({
            k,
            customFieldId: f.id,
            answer:
              f.label === 'T-shirt size'
                ? faker.helpers.arrayElement(['S', 'M', 'L', 'XL'])
                : f.label === 'Sleeping bag hire'
                  ? faker.helpers.arrayElement(['Yes', 'No'])
                  : f.label === 'Fundraising page URL'
                    ? `https://www.justgiving.com/page/${firstName}-${lastName}`.toLowerCase()
                    : '07' + faker.string.numeric(9),
            updatedAt: received,
          }));
        rows.answers.push(...answers);

        if (faker.number.int(100) < 30) {
          const author = faker.helpers.arrayElement(staff.slice(0, 2));
          rows.notes.push(
            ...faker.helpers.arrayElements(NOTE_TEXTS, { min: 1, max: 3 }).map((noteText, i) => {
              const at = new Date(received.getTime() + (i + 1) * faker.number.int({ min: 1, max: 12 }) * DAY);
              const when = at > today ? today : at;
              const edited = faker.number.int(100) < 20 ? new Date(when.getTime() + 3_600_000) : when;
              return {
                k,
                noteText,
                userId: author.id,
                ipAddress: `81.2.69.${faker.number.int({ min: 2, max: 250 })}`,
                createdAt: when,
                updatedAt: edited,
              };
            }),
          );
        }

        if (status === 'provisional') continue;
        // deposit: paid for every confirmed booking, refunded for most cancelled ones
        invoiceNo += 1;
        invoiceTotal += 1;
        const deposit = rows.invoices.length;
        rows.invoices.push({
          k,
          invoiceRef: `INV-${invoiceNo}`,
          type: 'deposit',
          description: `Deposit for ${trip!.name}`,
          invoiceDate: iso(received),
          dueDate: iso(new Date(received.getTime() + 14 * DAY)),
          createdBy: staff[0]!.id,
          createdAt: received,
        });
        rows.items.push({ i: deposit, description: 'Trip deposit', amountPence: trip!.depositPence });
        const paidOn = new Date(received.getTime() + faker.number.int({ min: 0, max: 10 }) * DAY);
        rows.transactions.push({
          k,
          i: deposit,
          invoiceType: 'deposit',
          amountPence: trip!.depositPence,
          type: 'payment',
          processor: faker.helpers.arrayElement(['STRIPE', 'STRIPE', 'STRIPE', 'BACS', 'CHEQUE'] as const),
          date: iso(paidOn > today ? today : paidOn),
          createdBy: staff[0]!.id,
          createdAt: paidOn > today ? today : paidOn,
        });
        if (status === 'cancelled') {
          if (faker.number.int(100) < 70) {
            rows.transactions.push({
              k,
              i: deposit,
              invoiceType: 'deposit',
              amountPence: trip!.depositPence,
              type: 'refund',
              processor: 'BACS',
              date: iso(today.getTime() > paidOn.getTime() + 5 * DAY ? new Date(paidOn.getTime() + 5 * DAY) : today),
              notes: 'Refunded on cancellation',
              createdBy: staff[1]!.id,
              createdAt: today.getTime() > paidOn.getTime() + 5 * DAY ? new Date(paidOn.getTime() + 5 * DAY) : today,
            });
          }
          continue;
        }
        // balance: billed for most confirmed bookings, with the add-ons; some paid, some part-paid, some not
        if (faker.number.int(100) >= 70) continue;
        invoiceNo += 1;
        invoiceTotal += 1;
        const withDiscount = faker.number.int(100) < 10;
        const balancePence = trip!.costPence - trip!.depositPence;
        const addonPence = chosen.reduce((s, a) => s + a.pricePence, 0);
        const invoiceDate = new Date(Math.min(today.getTime(), departure.getTime() - 70 * DAY));
        const balance = rows.invoices.length;
        rows.invoices.push({
          k,
          invoiceRef: `INV-${invoiceNo}`,
          type: 'balance',
          description: `Balance for ${trip!.name}`,
          invoiceDate: iso(invoiceDate < received ? received : invoiceDate),
          dueDate: iso(
            new Date(departure.getTime() - 56 * DAY) < (invoiceDate < received ? received : invoiceDate)
              ? departure
              : new Date(departure.getTime() - 56 * DAY),
          ),
          discountCode: withDiscount ? 'EARLYBIRD50' : null,
          discountPence: withDiscount ? 5000 : 0,
          createdBy: staff[0]!.id,
          createdAt: invoiceDate < received ? received : invoiceDate,
        });
        rows.items.push({ i: balance, description: 'Trip balance', amountPence: balancePence });
        rows.invoiceAddons.push(
          ...chosen.map((a) => ({ i: balance, addonId: a.id, name: a.name, pricePence: a.pricePence })),
        );
        for (const added of rows.addons.slice(addonsAt)) added.invoiced = true;
        const due = balancePence + addonPence - (withDiscount ? 5000 : 0);
        const state = faker.helpers.weightedArrayElement([
          { weight: 45, value: 'paid' },
          { weight: 30, value: 'part' },
          { weight: 25, value: 'unpaid' },
        ]);
        if (state === 'unpaid') continue;
        const part = state === 'paid' ? due : Math.round((due * faker.number.int({ min: 20, max: 70 })) / 100);
        const deleted = faker.number.int(100) < 4;
        rows.transactions.push({
          k,
          i: balance,
          invoiceType: 'balance',
          amountPence: part,
          type: 'payment',
          processor: faker.helpers.arrayElement(['STRIPE', 'BACS'] as const),
          date: iso(invoiceDate),
          notes: state === 'part' ? 'First instalment' : null,
          createdBy: staff[1]!.id,
          createdAt: invoiceDate,
          // an entry made by mistake and struck out: kept, but no longer counted
          deletedAt: deleted ? today : null,
          deletedBy: deleted ? staff[0]!.id : null,
        });
      }
      await insertTripRows(tx, tripId, rows);
    }

    await seedDiscounts(tx, today);
    // the teams the migration made (issue 36) date from the office's start, as the rest does
    await tx
      .update(teams)
      .set({ createdAt: days(-700), updatedAt: days(-700) })
      .where(gt(teams.createdAt, today));
    // and the office's staff beyond its two directors sit in the starting teams
    const teamIds = new Map(
      (await tx.select({ id: teams.id, name: teams.name }).from(teams)).map((t) => [t.name, t.id]),
    );
    await tx.insert(users).values(
      (
        [
          ['Ellie', 'Carter', 'Finance'],
          ['Sam', 'Patel', 'Operations'],
          ['Jess', 'Moore', 'Sales'],
          ['Noah', 'Reed', 'Read only'],
        ] as const
      ).map(([firstName, lastName, team]) => ({
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@tripdesk.test`,
        userRoleId: 1,
        teamId: teamIds.get(team) ?? null,
        passwordHash: staffHash,
        createdAt: days(-300),
        updatedAt: days(-300),
      })),
    );
    await seedSchoolGroup(tx, days);
    return { bookings: bookingTotal, trips: TRIPS.length, charities: CHARITIES.length, invoices: invoiceTotal };
  });
}

/**
 * A school's group on the Costa Rica school trip (issue 37): its leader (an End User who signs
 * in at /my) and the trip's live bookings as its pupils; the parents pay, as the bookings were.
 */
async function seedSchoolGroup(tx: Tx, days: (n: number) => Date) {
  const [trip] = await tx
    .select({ id: trips.id })
    .from(trips)
    .where(and(eq(trips.type, 'school'), eq(trips.status, 'open')))
    .orderBy(trips.departureDate)
    .limit(1);
  if (!trip) return;
  const [leader] = await tx
    .insert(users)
    .values({
      firstName: 'Helen',
      lastName: 'Price',
      email: 'helen.price@riverside-academy.test',
      userRoleId: 3,
      createdAt: days(-90),
      updatedAt: days(-90),
    })
    .returning({ id: users.id });
  const pupils = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.tripId, trip.id), ne(bookings.status, 'cancelled')));
  const [group] = await tx
    .insert(schoolGroups)
    .values({
      tripId: trip.id,
      school: 'Riverside Academy',
      leaderName: 'Helen Price',
      leaderEmail: 'helen.price@riverside-academy.test',
      leaderPhone: '01632 960 123',
      leaderUserId: leader!.id,
      places: Math.max(36, pupils.length),
      payer: 'parents',
      createdAt: days(-90),
      updatedAt: days(-90),
    })
    .returning({ id: schoolGroups.id });
  if (pupils.length)
    await tx
      .update(bookings)
      .set({ groupId: group!.id })
      .where(
        inArray(
          bookings.id,
          pupils.map((p) => p.id),
        ),
      );
}

/**
 * A trip's travellers and their bookings, invoices and payments, gathered in memory and written a
 * table at a time: the rollups are kept by statement triggers, so a trip costs a dozen statements
 * rather than a dozen per booking. `k` is a booking's place in the trip, `i` an invoice's.
 */
type TripRows = {
  users: Array<typeof users.$inferInsert>;
  bookings: Array<Omit<typeof bookings.$inferInsert, 'userId'>>;
  addons: Array<Omit<typeof bookingAddons.$inferInsert, 'bookingId'> & { k: number }>;
  answers: Array<Omit<typeof bookingCustomFieldAnswers.$inferInsert, 'bookingId'> & { k: number }>;
  notes: Array<Omit<typeof bookingNotes.$inferInsert, 'bookingId'> & { k: number }>;
  invoices: Array<Omit<typeof invoices.$inferInsert, 'bookingId'> & { k: number }>;
  items: Array<Omit<typeof invoiceItems.$inferInsert, 'invoiceId'> & { i: number }>;
  invoiceAddons: Array<Omit<typeof invoiceAddons.$inferInsert, 'invoiceId'> & { i: number }>;
  transactions: Array<Omit<typeof transactions.$inferInsert, 'bookingId' | 'invoiceId'> & { k: number; i: number }>;
};

const emptyTripRows = (): TripRows => ({
  users: [],
  bookings: [],
  addons: [],
  answers: [],
  notes: [],
  invoices: [],
  items: [],
  invoiceAddons: [],
  transactions: [],
});

async function insertTripRows(tx: Tx, tripId: number, rows: TripRows) {
  if (!rows.bookings.length) return;
  // multi-row VALUES take their ids in the order given, and RETURNING gives them back in it
  const userIds = (await tx.insert(users).values(rows.users).returning({ id: users.id })).map((row) => row.id);
  const bookingIds = (
    await tx
      .insert(bookings)
      .values(rows.bookings.map((booking, k) => ({ ...booking, tripId, userId: userIds[k]! })))
      .returning({ id: bookings.id })
  ).map((row) => row.id);
  const bookingOf = <T extends { k: number }>({ k, ...row }: T) => ({ ...row, bookingId: bookingIds[k]! });
  if (rows.addons.length) await tx.insert(bookingAddons).values(rows.addons.map(bookingOf));
  if (rows.answers.length) await tx.insert(bookingCustomFieldAnswers).values(rows.answers.map(bookingOf));
  if (rows.notes.length) await tx.insert(bookingNotes).values(rows.notes.map(bookingOf));
  if (!rows.invoices.length) return;
  const invoiceIds = (
    await tx.insert(invoices).values(rows.invoices.map(bookingOf)).returning({ id: invoices.id })
  ).map((row) => row.id);
  const invoiceOf = <T extends { i: number }>({ i, ...row }: T) => ({ ...row, invoiceId: invoiceIds[i]! });
  await tx.insert(invoiceItems).values(rows.items.map(invoiceOf));
  if (rows.invoiceAddons.length) await tx.insert(invoiceAddons).values(rows.invoiceAddons.map(invoiceOf));
  if (rows.transactions.length) {
    await tx
      .insert(transactions)
      .values(
        rows.transactions.map(({ k, i, ...row }) => ({ ...row, bookingId: bookingIds[k]!, invoiceId: invoiceIds[i]! })),
      );
  }
}

async function seedDiscounts(tx: Tx, today: Date) {
  const at = (n: number) => new Date(today.getTime() + n * DAY);
  const [kili] = await tx.select({ id: trips.id }).from(trips).limit(1);
  await tx.insert(discounts).values([
    {
      code: 'EARLYBIRD50',
      name: 'Early bird: £50 off the balance',
      amountPence: 5000,
      usageLimit: 100,
      usageCount: 23,
      invoiceType: 'balance',
      validFrom: at(-90),
      validUntil: at(60),
      createdAt: at(-120),
      updatedAt: at(-120),
    },
    {
      code: 'SPRING25',
      name: 'Spring offer',
      amountPence: 2500,
      usageLimit: 50,
      usageCount: 4,
      invoiceType: 'any',
      validFrom: at(14),
      createdAt: at(-10),
      updatedAt: at(-10),
    },
    {
      code: 'LASTCHANCE',
      name: 'Last chance deposit offer',
      amountPence: 7500,
      usageLimit: 20,
      usageCount: 20,
      invoiceType: 'deposit',
      validUntil: at(-3),
      createdAt: at(-60),
      updatedAt: at(-60),
    },
    {
      code: 'STAFF100',
      name: 'Staff and family',
      amountPence: 10000,
      usageLimit: 10,
      usageCount: 1,
      invoiceType: 'any',
      createdAt: at(-400),
      updatedAt: at(-400),
    },
    {
      code: 'KILI-GROUP',
      name: 'Kilimanjaro group of six or more',
      amountPence: 15000,
      usageLimit: 6,
      usageCount: 2,
      invoiceType: 'balance',
      tripId: kili?.id ?? null,
      validUntil: at(30),
      createdAt: at(-45),
      updatedAt: at(-45),
    },
    {
      code: 'REFERAFRIEND',
      name: 'Refer a friend',
      amountPence: 3000,
      usageLimit: 1,
      usageCount: 0,
      invoiceType: 'other',
      createdAt: at(-200),
      updatedAt: at(-200),
    },
  ]);
}

function colour(i: number): [number, number, number] {
  const palette: Array<[number, number, number]> = [
    [28, 126, 214],
    [47, 158, 68],
    [230, 73, 128],
    [247, 103, 7],
    [121, 80, 242],
    [18, 184, 134],
    [250, 82, 82],
    [21, 170, 191],
  ];
  return palette[i % palette.length]!;
}
