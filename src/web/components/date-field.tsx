import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import type { FocusEvent } from 'react';

dayjs.extend(customParseFormat);

/** Spec §9: the date picker's format 'dd MMM yyyy', in dayjs's words. */
export const DATE_FIELD_FORMAT = 'DD MMM YYYY';
const TYPED_FORMATS = [DATE_FIELD_FORMAT, 'D MMM YYYY', 'DD MMMM YYYY', 'D MMMM YYYY', 'DD/MM/YYYY', 'D/M/YYYY', 'YYYY-MM-DD'];

/** A typed date in any of the forms staff use, or null. */
export function parseTypedDate(text: string): string | null {
  const value = text.trim();
  if (!value) return null;
  for (const format of TYPED_FORMATS) {
    const d = dayjs(value, format, 'en', true);
    if (d.isValid()) return d.format('YYYY-MM-DD');
  }
  return null;
}

type Props = Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser'> & {
  /** yyyy-mm-dd, or null */
  value: string | null;
  onChange: (value: string | null) => void;
};

/**
 * Every date a person picks (spec §9): shown as 'DD MMM YYYY', a 300 px calendar with English
 * month and day names, day → month → year levels (a decade of 10 years), and a typed date that
 * cannot be read is cleared when the field is left.
 */
export function DateField({ value, onChange, onBlur, ...rest }: Props) {
  const blur = (event: FocusEvent<HTMLInputElement>) => {
    const typed = event.currentTarget.value;
    if (typed.trim() === '' || parseTypedDate(typed) === null) onChange(null);
    onBlur?.(event);
  };
  return (
    <DateInput
      {...rest}
      value={value}
      onChange={(v) => onChange(v ? String(v).slice(0, 10) : null)}
      onBlur={blur}
      valueFormat={DATE_FIELD_FORMAT}
      dateParser={parseTypedDate}
      locale="en"
      maxLevel="decade"
      popoverProps={{ width: 300, ...rest.popoverProps }}
      styles={{ levelsGroup: { width: '100%', justifyContent: 'center' } }}
    />
  );
}
