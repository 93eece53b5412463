import { useDebouncedValue } from '@mantine/hooks';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRIP_SEARCH_DEBOUNCE_MS } from '../../../contract/trip-constants.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the trip list name search', () => {
  it('waits 500 ms after the last key before it searches', () => {
    expect(TRIP_SEARCH_DEBOUNCE_MS).toBe(500);
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, TRIP_SEARCH_DEBOUNCE_MS)[0], {
      initialProps: { value: '' },
    });
    rerender({ value: 'k' });
    act(() => vi.advanceTimersByTime(300));
    rerender({ value: 'ki' });
    act(() => vi.advanceTimersByTime(499));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('ki');
  });
});
