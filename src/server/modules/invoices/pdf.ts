import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from '../../../contract/invoices.ts';
import { formatPounds } from '../../../contract/money.ts';

// DejaVu Sans, not the PDF's built-in Helvetica: that has only Latin-1, and travellers are
// called Łukasz, Dvořák and Nguyễn too (and pounds are written with a proper minus sign)
const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(fonts, 'DejaVuSans.ttf');
const BOLD = path.join(fonts, 'DejaVuSans-Bold.ttf');

export const day = (iso: string) =>
  new Date(iso.slice(0, 10) + 'T00:00:00Z').toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * An A4 page in the invoices' fonts, with a description-and-amount row and a rule; `done` is the
 * PDF once `pdf.end()` is called.
 */
export function a4(title: string, author: string) {
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title, Author: author } });
  pdf.registerFont('Body', REGULAR);
  pdf.registerFont('Body-Bold', BOLD);
  pdf.font('Body');
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const left = 50;
  const right = pdf.page.width - 50;
  const width = right - left;
  const row = (label: string, amount: string, bold = false) => {
    pdf.font(bold ? 'Body-Bold' : 'Body').fontSize(10);
    const top = pdf.y;
    pdf.text(label, left, top, { width: width - 110 });
    const after = pdf.y;
    pdf.text(amount, right - 100, top, { width: 100, align: 'right' });
    pdf.y = Math.max(after, pdf.y) + 4;
  };
  const rule = () => {
    pdf.moveTo(left, pdf.y).lineTo(right, pdf.y).strokeColor('#999999').lineWidth(0.5).stroke();
    pdf.y += 6;
  };
  return { pdf, done, left, right, width, row, rule };
}

/** The invoice as an A4 PDF: the same content as the printable page at /invoices/{id}. */
export function invoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const { invoice, operator, customer, booking, trip } = doc;
  const { pdf, done, left, width, row, rule } = a4(`Invoice ${invoice.invoice_ref}`, operator.name);

  pdf.font('Body-Bold').fontSize(16).text(operator.name, left, 50);
  pdf.font('Body').fontSize(10).text(operator.address.join('\n'));
  pdf.font('Body-Bold').fontSize(22).text('INVOICE', left, 50, { width, align: 'right' });
  pdf.font('Body').fontSize(10);
  pdf.text(`Reference: ${invoice.invoice_ref}`, { width, align: 'right' });
  pdf.text(`Date: ${day(invoice.invoice_date)}`, { width, align: 'right' });
  pdf.text(`Due: ${day(invoice.due_date)}`, { width, align: 'right' });

  pdf.moveDown(3);
  const y = Math.max(pdf.y, 150);
  pdf.font('Body-Bold').text('Bill to', left, y);
  pdf.font('Body').text([customer.name, ...customer.address, customer.email].join('\n'), { width: width / 2 - 10 });
  const billed = pdf.y;
  pdf.font('Body-Bold').text('Booking', left + width / 2, y);
  pdf
    .font('Body')
    .text(`${booking.ref}\n${trip.name}\n${day(trip.departure)} to ${day(trip.return)}`, left + width / 2, undefined, {
      width: width / 2,
    });
  pdf.y = Math.max(billed, pdf.y) + 24;
  pdf.font('Body-Bold').fontSize(12).text(invoice.description, left);
  pdf.moveDown(0.5);

  row('Description', 'Amount', true);
  rule();
  for (const item of invoice.items) row(item.description, formatPounds(item.amount));
  for (const addon of invoice.addons) row(`Add-on: ${addon.name}`, formatPounds(addon.price));
  rule();
  if (invoice.discount_amount > 0)
    row(
      `Discount${invoice.discount_code ? ` (${invoice.discount_code})` : ''}`,
      `−${formatPounds(invoice.discount_amount)}`,
    );
  row('Total', formatPounds(invoice.total), true);
  row('Payments received', formatPounds(invoice.payment_received));
  row('Outstanding', formatPounds(invoice.outstanding), true);

  const live = invoice.transactions.filter((t) => t.deleted_at === null);
  if (live.length) {
    pdf.moveDown();
    pdf.font('Body-Bold').text('Payments and refunds', left);
    pdf.moveDown(0.3);
    for (const t of live)
      row(
        `${day(t.date)} · ${t.type === 'refund' ? 'Refund' : 'Payment'}`,
        `${t.type === 'refund' ? '−' : ''}${formatPounds(t.amount)}`,
      );
  }

  pdf.moveDown(2);
  pdf
    .font('Body')
    .fontSize(10)
    .text(
      invoice.paid
        ? 'This invoice is paid in full. Thank you.'
        : invoice.status === 'Refunded'
          ? 'The payments on this invoice have been refunded.'
          : `Please pay ${formatPounds(invoice.outstanding)} by ${day(invoice.due_date)}, quoting ${invoice.invoice_ref}.`,
      left,
    );
  if (doc.pay) {
    // the pay link, as a link and as a QR code for a phone held up to the page
    pdf.moveDown();
    const top = pdf.y;
    pdf.image(Buffer.from(doc.pay.qr.split(',')[1]!, 'base64'), left, top, { width: 90 });
    pdf
      .font('Body-Bold')
      .fontSize(10)
      .text('Pay by card', left + 105, top + 10);
    pdf
      .font('Body')
      .fillColor('#1a56a6')
      .text(doc.pay.url, left + 105, undefined, { width: width - 105, link: doc.pay.url, underline: true });
    pdf.fillColor('black').text('Scan the code with a phone, or open the link.', left + 105);
    pdf.y = Math.max(pdf.y, top + 95);
  }
  pdf.end();
  return done;
}
