import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DateField, parseTypedDate } from './date-field.tsx';

beforeAll(() => {
  // jsdom has no matchMedia; Mantine asks it for the colour scheme
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  })) as never;
});
afterEach(cleanup);

describe('parseTypedDate', () => {
  it('reads the picker’s own format and the forms staff type', () => {
    expect(parseTypedDate('25 Dec 2026')).toBe('2026-12-25');
    expect(parseTypedDate('5 December 2026')).toBe('2026-12-05');
    expect(parseTypedDate('25/12/2026')).toBe('2026-12-25');
    expect(parseTypedDate('2026-12-25')).toBe('2026-12-25');
  });
  it('reads nothing from text that is not a real date', () => {
    expect(parseTypedDate('31/02/2026')).toBeNull();
    expect(parseTypedDate('next week')).toBeNull();
    expect(parseTypedDate('')).toBeNull();
  });
});

function Harness({ initial, seen }: { initial: string | null; seen: Array<string | null> }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <MantineProvider>
      <DateField
        label="Due Date"
        value={value}
        onChange={(v) => {
          seen.push(v);
          setValue(v);
        }}
      />
    </MantineProvider>
  );
}

describe('DateField', () => {
  it('shows the date as DD MMM YYYY', () => {
    render(<Harness initial="2026-11-22" seen={[]} />);
    expect(screen.getByLabelText('Due Date')).toHaveProperty('value', '22 Nov 2026');
  });

  it('clears a typed date that cannot be read when the field is left (spec §9)', () => {
    const seen: Array<string | null> = [];
    render(<Harness initial="2026-11-22" seen={seen} />);
    const input = screen.getByLabelText('Due Date') as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '31 Foo 2026' } });
    fireEvent.blur(input);
    expect(seen.at(-1)).toBeNull();
    expect(input.value).toBe('');
  });

  it('keeps a typed date it can read', () => {
    const seen: Array<string | null> = [];
    render(<Harness initial={null} seen={seen} />);
    const input = screen.getByLabelText('Due Date') as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '25/12/2026' } });
    fireEvent.blur(input);
    expect(seen.at(-1)).toBe('2026-12-25');
    expect(input.value).toBe('25 Dec 2026');
  });

  it('is a plain field until focused; then the calendar loads and takes the focus, what was typed, and opens', async () => {
    const seen: Array<string | null> = [];
    render(<Harness initial={null} seen={seen} />);
    const plain = screen.getByLabelText('Due Date') as HTMLInputElement;
    expect(document.querySelector('[data-dates-input]')).toBeNull();
    act(() => plain.focus());
    fireEvent.change(plain, { target: { value: '25/12/2026' } });
    expect(seen.at(-1)).toBe('2026-12-25');
    await waitFor(() => expect(document.querySelector('[data-dates-input]')).not.toBeNull());
    const picker = screen.getByLabelText('Due Date') as HTMLInputElement;
    expect(picker).not.toBe(plain);
    expect(document.activeElement).toBe(picker);
    expect(picker.value).toBe('25/12/2026');
    await waitFor(() => expect(screen.getByText('December 2026')).toBeTruthy());
    fireEvent.blur(picker);
    expect(picker.value).toBe('25 Dec 2026');
    expect(seen.at(-1)).toBe('2026-12-25');
  });

  it('once the calendar has loaded, a field is the picker from the start, with the same rules (spec §9)', () => {
    const seen: Array<string | null> = [];
    render(<Harness initial="2026-11-22" seen={seen} />);
    const input = screen.getByLabelText('Due Date') as HTMLInputElement;
    expect(input.hasAttribute('data-dates-input')).toBe(true);
    expect(input.value).toBe('22 Nov 2026');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '31 Foo 2026' } });
    fireEvent.blur(input);
    expect(seen.at(-1)).toBeNull();
    expect(input.value).toBe('');
  });
});
