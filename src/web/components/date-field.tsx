import { TextInput } from '@mantine/core';
import type { DateInput as DateInputType, DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useId, useLayoutEffect, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';

dayjs.extend(customParseFormat);

/** Spec §9: the date picker's format 'dd MMM yyyy', in dayjs's words. */
export const DATE_FIELD_FORMAT = 'DD MMM YYYY';
const TYPED_FORMATS = [
  DATE_FIELD_FORMAT,
  'D MMM YYYY',
  'DD MMMM YYYY',
  'D MMMM YYYY',
  'DD/MM/YYYY',
  'D/M/YYYY',
  'YYYY-MM-DD',
];

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

const formatDate = (value: string | null) => (value ? dayjs(value).format(DATE_FIELD_FORMAT) : '');

type Props = Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser'> & {
  /** yyyy-mm-dd, or null */
  value: string | null;
  onChange: (value: string | null) => void;
};

// the calendar's code (Mantine's DateInput, its popover and styles) loads once, on the first focus
let picker: typeof DateInputType | null = null;
let loading: Promise<typeof DateInputType> | null = null;
function loadPicker() {
  loading ??= import('./date-field-picker.ts').then(
    (m) => (picker = m.DateInput),
    (error: unknown) => {
      loading = null; // tried again on the next focus
      throw error;
    },
  );
  return loading;
}

/** Types text into a React-controlled input as if typed (so its onChange sees it). */
function typeInto(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Every date a person picks (spec §9): shown as 'DD MMM YYYY', a 300 px calendar with English
 * month and day names, day → month → year levels (a decade of 10 years), and a typed date that
 * cannot be read is cleared when the field is left.
 *
 * Until the field is first focused it is a plain text input (the calendar is not part of a
 * screen's first visit); a date typed there is read the same way. On focus or click the calendar's
 * code loads, and the picker takes the field's place, with the focus, what was typed, and its
 * calendar open.
 */
export function DateField({ value, onChange, onBlur, ...rest }: Props) {
  const id = useId();
  const [Picker, setPicker] = useState(() => picker);
  // what was typed in the plain field, or null while it shows the value
  const [typed, setTyped] = useState<string | null>(null);
  // while the calendar is open, Escape closes it and not the dialog around the field
  const [calendarOpen, setCalendarOpen] = useState(false);
  const plainRef = useRef<HTMLInputElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  // set while the picker takes the place of the focused plain field; the text typed there so far
  const handover = useRef(false);
  const typedNow = useRef<string | null>(null);

  // in the same task as the swap, so that no key pressed in between is lost
  useLayoutEffect(() => {
    const input = pickerRef.current;
    if (!Picker || !input || !handover.current) return;
    handover.current = false;
    // the focus left with the plain field; unless the person has moved on meanwhile, it comes here
    if (document.activeElement && document.activeElement !== document.body) return;
    input.focus();
    // typed once React has finished this commit (an event inside it is not seen), before any next key
    const text = typedNow.current;
    if (text !== null && text !== input.value) queueMicrotask(() => typeInto(input, text));
  }, [Picker]);

  if (Picker) {
    const blur = (event: FocusEvent<HTMLInputElement>) => {
      const text = event.currentTarget.value;
      if (text.trim() === '' || parseTypedDate(text) === null) onChange(null);
      onBlur?.(event);
    };
    return (
      <Picker
        {...rest}
        id={rest.id ?? id}
        ref={pickerRef}
        value={value}
        onChange={(v) => onChange(v ? String(v).slice(0, 10) : null)}
        onBlur={blur}
        valueFormat={DATE_FIELD_FORMAT}
        dateParser={parseTypedDate}
        locale="en"
        maxLevel="decade"
        popoverProps={{
          width: 300,
          ...rest.popoverProps,
          onOpen: () => {
            setCalendarOpen(true);
            rest.popoverProps?.onOpen?.();
          },
          onClose: () => {
            setCalendarOpen(false);
            rest.popoverProps?.onClose?.();
          },
        }}
        data-mantine-stop-propagation={calendarOpen || undefined}
        styles={{ levelsGroup: { width: '100%', justifyContent: 'center' } }}
      />
    );
  }

  const {
    label,
    description,
    error,
    required,
    withAsterisk,
    placeholder,
    disabled,
    readOnly,
    size,
    radius,
    className,
    style,
    w,
    leftSection,
    rightSection,
    'aria-label': ariaLabel,
  } = rest;
  const wake = () => {
    if (disabled || readOnly) return;
    loadPicker().then(
      (loaded) => {
        // the picker takes the focus only from a field that still has it
        handover.current = plainRef.current !== null && document.activeElement === plainRef.current;
        setPicker(() => loaded);
      },
      () => {}, // no calendar (a deploy in between): the plain field still takes a typed date
    );
  };
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.currentTarget.value;
    setTyped(text);
    typedNow.current = text;
    // as the picker does: a readable date counts at once (Enter submits it)
    if (text.trim() === '') onChange(null);
    else {
      const date = parseTypedDate(text);
      if (date) onChange(date);
    }
  };
  const blur = (event: FocusEvent<HTMLInputElement>) => {
    if (!handover.current && typed !== null) {
      if (parseTypedDate(typed) === null) onChange(null);
      setTyped(null);
      typedNow.current = null;
    }
    onBlur?.(event);
  };
  return (
    <TextInput
      ref={plainRef}
      id={rest.id ?? id}
      label={label}
      description={description}
      error={error}
      required={required}
      withAsterisk={withAsterisk}
      placeholder={placeholder}
      disabled={disabled}
      readOnly={readOnly}
      size={size}
      radius={radius}
      className={className}
      style={style}
      w={w}
      leftSection={leftSection}
      rightSection={rightSection}
      aria-label={ariaLabel}
      autoComplete="off"
      value={typed ?? formatDate(value)}
      onChange={change}
      onFocus={wake}
      onClick={wake}
      onBlur={blur}
    />
  );
}
