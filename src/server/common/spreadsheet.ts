/** A spreadsheet program runs a cell that starts with one of these as a formula: such text is written with a leading apostrophe. */
export function escapeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
