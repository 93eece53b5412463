import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

// the invoices' DejaVu Sans: travellers are called Łukasz, Dvořák and Nguyễn too
const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(fonts, 'DejaVuSans.ttf');
const BOLD = path.join(fonts, 'DejaVuSans-Bold.ttf');

export type PdfSheet = {
  title: string;
  subtitle: string;
  columns: Array<{ header: string; width: number; date?: true }>;
  rows: unknown[][];
  empty: string;
};

const ddmmyyyy = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

// control and formatting characters, which a cell prints as a space
/* eslint-disable no-control-regex -- control characters are what is being removed */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
/* eslint-enable no-control-regex */

/**
 * What a cell prints: dates as dd/mm/yyyy; text without control or formatting characters (a
 * traveller's typing — a bell, an escape, a right-to-left override — must never break the page)
 * and with runs of spaces and line breaks as one space; text a spreadsheet would have read as a
 * formula left as the traveller typed it (the xlsx's guard quote is not shown); and a very long
 * word given places to wrap (pdfkit's wrapping of one word wider than its column takes time
 * growing with the square of its length: 60,000 letters held the server for minutes).
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return ddmmyyyy(v);
  return String(v)
    .replace(INVISIBLE, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'(?=[=+\-@])/, '')
    .replace(/\S{100,}/g, (word) => word.match(/.{1,20}/gsu)!.join('\u200b'));
}

/**
 * Each column's width: the spreadsheet's widths scaled to the page, but never so narrow that a
 * word of its header or a short value (a date, a reference) breaks; a very long word may still
 * wrap (no column takes more than a fifth of the page for it).
 */
function columnWidths(pdf: PDFKit.PDFDocument, sheet: PdfSheet, pageWidth: number): number[] {
  const natural = sheet.columns.map((c, i) => {
    pdf.font('Body-Bold').fontSize(FONT);
    let widest = Math.max(...c.header.split(/\s+/).map((w) => pdf.widthOfString(w)));
    pdf.font('Body').fontSize(FONT);
    for (const row of sheet.rows)
      for (const word of cellText(row[i]).split(/\s+/)) widest = Math.max(widest, pdf.widthOfString(word));
    return Math.min(widest + 2 * PAD + 4, pageWidth / 5);
  });
  // columns too narrow for their words take what they need; the rest share what is left, until none is too narrow
  const fixed = sheet.columns.map(() => false);
  let widths: number[] = [];
  for (let pass = 0; pass <= sheet.columns.length; pass++) {
    const fixedWidth = natural.reduce((s, w, i) => s + (fixed[i] ? w : 0), 0);
    const freeTotal = sheet.columns.reduce((s, c, i) => s + (fixed[i] ? 0 : c.width), 0);
    widths = sheet.columns.map((c, i) =>
      fixed[i] ? natural[i]! : freeTotal ? (c.width / freeTotal) * (pageWidth - fixedWidth) : 0,
    );
    const short = widths.findIndex((w, i) => !fixed[i] && w < natural[i]!);
    if (short === -1) break;
    widths.forEach((w, i) => !fixed[i] && w < natural[i]! && (fixed[i] = true));
  }
  return widths;
}

const MARGIN = 30;
const FONT = 7.5;
const PAD = 3;

/**
 * A sheet of the manifest as an A4 landscape PDF: the title, the trip and the count,
 * then the table, its header again on each page, every cell wrapped within its column (the
 * spreadsheet's widths scaled to the page), and "Page x of y" at the foot.
 */
export function manifestPdf(sheet: PdfSheet, generatedOn: string): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: sheet.title },
  });
  pdf.registerFont('Body', REGULAR);
  pdf.registerFont('Body-Bold', BOLD);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = MARGIN;
  const pageWidth = pdf.page.width - 2 * MARGIN;
  const bottom = pdf.page.height - MARGIN - 16;
  const widths = columnWidths(pdf, sheet, pageWidth);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((s, w) => s + w, 0));

  pdf.font('Body-Bold').fontSize(14).text(sheet.title, left, MARGIN, { width: pageWidth });
  pdf
    .font('Body')
    .fontSize(9)
    .fillColor('#444')
    .text(`${sheet.subtitle} Generated on ${generatedOn}.`, { width: pageWidth });
  pdf.fillColor('black').moveDown(0.6);

  const heightOf = (cells: string[], bold: boolean) => {
    pdf.font(bold ? 'Body-Bold' : 'Body').fontSize(FONT);
    return (
      Math.max(...cells.map((c, i) => pdf.heightOfString(c || ' ', { width: widths[i]! - 2 * PAD })), FONT) + 2 * PAD
    );
  };
  const drawRow = (cells: string[], y: number, h: number, bold: boolean, shade: boolean) => {
    if (shade)
      pdf
        .rect(left, y, pageWidth, h)
        .fill(bold ? '#e9ecef' : '#f8f9fa')
        .fillColor('black');
    pdf.font(bold ? 'Body-Bold' : 'Body').fontSize(FONT);
    cells.forEach((c, i) => pdf.text(c, xs[i]! + PAD, y + PAD, { width: widths[i]! - 2 * PAD, lineBreak: true }));
    pdf
      .moveTo(left, y + h)
      .lineTo(left + pageWidth, y + h)
      .lineWidth(0.3)
      .strokeColor('#ced4da')
      .stroke();
  };
  const headers = sheet.columns.map((c) => c.header);
  const header = (y: number) => {
    const h = heightOf(headers, true);
    drawRow(headers, y, h, true, true);
    return y + h;
  };

  let y = header(pdf.y);
  if (sheet.rows.length === 0) {
    pdf
      .font('Body')
      .fontSize(10)
      .text(sheet.empty, left, y + 8, { width: pageWidth });
  }
  /** The longest start of a cell's text that fits in a height, cut at a space where there is one. */
  const fitting = (text: string, width: number, height: number) => {
    pdf.font('Body').fontSize(FONT);
    let [lo, hi] = [0, text.length];
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (pdf.heightOfString(text.slice(0, mid) || ' ', { width }) <= height) lo = mid;
      else hi = mid - 1;
    }
    const space = text.lastIndexOf(' ', lo);
    const cut = lo < text.length && space > lo / 2 ? space : lo;
    return [text.slice(0, cut).trimEnd(), text.slice(cut).trimStart()] as const;
  };
  const headerHeight = heightOf(headers, true);
  sheet.rows.forEach((values, n) => {
    let cells = values.map(cellText);
    for (;;) {
      const h = heightOf(cells, false);
      if (y + h <= bottom) {
        drawRow(cells, y, h, false, n % 2 === 1);
        y += h;
        return;
      }
      // a row taller than a whole page is cut where the page ends and goes on on the next, its
      // traveller named again with "(continued)"; any other row moves to the next page whole
      const fresh = MARGIN + headerHeight;
      if (h <= bottom - fresh || bottom - y < 4 * FONT) {
        pdf.addPage();
        y = header(MARGIN);
        if (h <= bottom - fresh) continue;
      }
      const parts = cells.map((c, i) => fitting(c, widths[i]! - 2 * PAD, bottom - y - 2 * PAD));
      drawRow(
        parts.map(([head]) => head),
        y,
        bottom - y,
        false,
        n % 2 === 1,
      );
      if (parts.every(([, rest]) => !rest)) return;
      const name = cells[0]!.replace(/ \(continued\)$/, '');
      cells = parts.map(([, rest], i) => (i === 0 && !rest ? `${name} (continued)` : rest));
      pdf.addPage();
      y = header(MARGIN);
    }
  });

  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    pdf.font('Body').fontSize(8).fillColor('#444');
    // written inside the bottom margin: no new page for the footer; the title cut short with an
    // ellipsis where it would reach the page number
    const margins = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const footY = pdf.page.height - MARGIN - 8;
    const page = `Page ${i - range.start + 1} of ${range.count}`;
    const room = pageWidth - pdf.widthOfString(page) - 20;
    let title = sheet.title;
    while (title.length > 1 && pdf.widthOfString(title) > room)
      title = `${[...title]
        .slice(0, Math.max(1, Math.floor([...title].length * 0.9)) - 1)
        .join('')
        .trimEnd()}…`;
    pdf.text(title, left, footY, { width: room, lineBreak: false });
    pdf.text(page, left, footY, { width: pageWidth, align: 'right', lineBreak: false });
    pdf.page.margins.bottom = margins;
  }
  pdf.end();
  return done;
}
