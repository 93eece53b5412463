import type { FileStore } from '../../../shared/storage/index.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationErrorSchema, idParam, messageSchema } from '../../../contract/common.ts';
import { answersSchema, travellerFormSchema } from '../../../contract/my.ts';
import { HttpError } from '../../errors.ts';
import { hidesTravellerData, refuseHiddenFilter } from '../../common/traveller-data.ts';
import { permissionMessage, TRAVELLER_DATA, TRAVELLER_DATA_FIELDS } from '../../../contract/team-constants.ts';
import {
  markPassportImageChecked,
  passportImageOf,
  readPassportPhoto,
  saveAnswers,
  savePassportImage,
  saveTravellerForm,
} from './traveller-form.ts';
import {
  bookingDetailSchema,
  bookingExportQuery,
  bookingListQuery,
  bookingPageSchema,
  createBookingSchema,
  createdBookingSchema,
  updateBookingSchema,
} from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import { getBooking, updateBooking, viewBooking } from './detail.ts';
import { exportFileName, passportZip, spreadsheet } from './export.ts';
import { listBookings } from './list.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { fundraisingSql } from '../fundraising/sql.ts';
import { ukToday } from '../../../contract/dates.ts';
import { BookingService } from './service.ts';

export async function bookingRoutes(app: FastifyInstance, opts: { db: Db; files: FileStore; clock?: Clock }) {
  const service = new BookingService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // the fundraising filter's rule, read on today's UK date; worked out only when a filter or a column needs it
  const fundraising = (needed: boolean) =>
    needed ? fundraisingSql(ukToday(nowOf(opts.clock ?? systemClock))) : undefined;
  const FUNDRAISING_COLUMNS = new Set(['fundraising_target', 'fundraising_raised', 'fundraising_state']);
  r.get(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Bookings, filtered, sorted and paged (defaults: status all, timing future, newest first)',
        querystring: bookingListQuery,
        response: { 200: bookingPageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      refuseHiddenFilter(request, request.query);
      const rule = fundraising(Boolean(request.query.fundraising));
      return listBookings(opts.db, request.query, rule ? { fundraising: rule } : {});
    },
  );
  // a download the browser asks for with a form GET, so it lives beside the pages, not under /api
  r.get(
    '/bookings/export',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['bookings'],
        summary: 'Download the listed bookings: format xls (a .xlsx workbook) or passportZip (their passport images)',
        querystring: bookingExportQuery,
      },
    },
    async (request, reply) => {
      const { format, perPage, columns: asked, ...filter } = request.query;
      refuseHiddenFilter(request, filter);
      // a team without traveller data read gets the other columns, and no passport images at all
      const hides = hidesTravellerData(request);
      if (hides && format === 'passportZip') throw new HttpError(403, permissionMessage(TRAVELLER_DATA, 'read'));
      const columns = hides ? asked.filter((c) => !TRAVELLER_DATA_FIELDS.includes(c as never)) : asked;
      const f = { ...filter, per_page: 1 };
      reply.header('cache-control', 'no-store');
      const rule = fundraising(
        Boolean(f.fundraising) || (format !== 'passportZip' && columns.some((c) => FUNDRAISING_COLUMNS.has(c))),
      );
      if (format === 'passportZip') {
        return reply
          .type('application/zip')
          .header(
            'content-disposition',
            `attachment; filename="${exportFileName('zip').replace('bookings-', 'passports-')}"`,
          )
          .send(passportZip(opts.db, opts.files, f, perPage, rule));
      }
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${exportFileName('xlsx')}"`)
        .send(spreadsheet(opts.db, f, perPage, columns, rule));
    },
  );
  r.get(
    '/api/bookings/:id',
    {
      schema: {
        tags: ['bookings'],
        summary: 'One booking with every field, its add-ons and its answers',
        params: idParam,
        response: { 200: bookingDetailSchema, 404: messageSchema },
      },
    },
    async (request) => viewBooking(opts.db, request.params.id),
  );
  r.patch(
    '/api/bookings/:id',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Change status, room and traveller details (invoices, payments and notes are untouched)',
        params: idParam,
        body: updateBookingSchema,
        response: { 200: bookingDetailSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => updateBooking(opts.db, request.params.id, request.body),
  );
  r.put(
    '/api/bookings/:id/traveller-form',
    {
      schema: {
        tags: ['bookings'],
        summary: "Fill in the traveller's form for them: the same fields and rules as their own page",
        params: idParam,
        body: travellerFormSchema,
        response: { 200: bookingDetailSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      await saveTravellerForm(opts.db, request.params.id, request.body);
      return getBooking(opts.db, request.params.id);
    },
  );
  r.put(
    '/api/bookings/:id/answers',
    {
      schema: {
        tags: ['bookings'],
        summary: "Answer the trip's questions for the traveller: the same contract as their own page",
        params: idParam,
        body: answersSchema,
        response: { 200: bookingDetailSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      await saveAnswers(opts.db, request.params.id, request.body);
      return getBooking(opts.db, request.params.id);
    },
  );
  r.post(
    '/api/bookings/:id/passport-image',
    {
      schema: {
        tags: ['bookings'],
        summary:
          "Upload the passport's photo page for the traveller (multipart, field file: JPG, PNG or PDF by content, at most 10 MB)",
        params: idParam,
        consumes: ['multipart/form-data'],
        response: { 200: bookingDetailSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      await getBooking(opts.db, request.params.id);
      const file = await readPassportPhoto(request, opts.files);
      await savePassportImage(opts.db, opts.files, request.params.id, file, 'office');
      return getBooking(opts.db, request.params.id);
    },
  );
  r.get(
    '/api/bookings/:id/passport-image',
    {
      schema: {
        tags: ['bookings'],
        summary: "The passport's photo page as uploaded (JPG, PNG or PDF)",
        params: idParam,
      },
    },
    async (request, reply) => {
      const image = await passportImageOf(opts.db, opts.files, request.params.id);
      return reply
        .type(image.mime)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="passport-${request.params.id}.${image.ext}"`)
        .send(image.stream);
    },
  );
  r.post(
    '/api/bookings/:id/passport-image/checked',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Tick the traveller\'s passport photo as checked: the readiness board\'s "to check" goes',
        params: idParam,
        response: { 200: messageSchema, 404: messageSchema, 422: messageSchema },
      },
    },
    async (request) => {
      if (!(await markPassportImageChecked(opts.db, request.params.id)))
        throw new HttpError(422, 'This booking has no passport photo to check.');
      return { message: 'The passport photo is checked.' };
    },
  );
  r.post(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Create a provisional booking on an open trip, for the user with that email (made when new)',
        body: createBookingSchema,
        response: { 201: createdBookingSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
}
