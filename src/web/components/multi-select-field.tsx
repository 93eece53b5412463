import { MultiSelect, Text, type MultiSelectProps } from '@mantine/core';
import { useState } from 'react';

/** Spec §9 multi-select constants, in one place. */
export const MULTI_SELECT = {
  limit: 1000,
  maxDropdownHeight: 300,
  optionHeight: 40,
  placeholder: 'Select option',
  noResult: 'No elements found. Consider changing the search query.',
  noOptions: 'List is empty.',
  maxReached: (n: number) => `Maximum of ${n} options selected. First remove a selected option to select another.`,
  selectLabel: 'Press enter to select',
  deselectLabel: 'Press enter to remove',
  more: (n: number) => `and ${n} more`,
  /** selected values shown as pills before the rest are summed up */
  shownPills: 3,
};

type Props = Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> & {
  data: Array<{ value: string; label: string }>;
  value: string[];
  onChange: (value: string[]) => void;
  max?: number;
};

export function MultiSelectField({ data, value, onChange, max, ...rest }: Props) {
  const [search, setSearch] = useState('');
  const full = max !== undefined && value.length >= max;
  const hidden = Math.max(0, value.length - MULTI_SELECT.shownPills);
  return (
    <div>
      <MultiSelect
        searchable
        clearable
        data={data}
        value={value}
        onChange={onChange}
        searchValue={search}
        onSearchChange={setSearch}
        limit={MULTI_SELECT.limit}
        maxDropdownHeight={MULTI_SELECT.maxDropdownHeight}
        maxValues={max}
        placeholder={value.length ? undefined : MULTI_SELECT.placeholder}
        nothingFoundMessage={full ? MULTI_SELECT.maxReached(max!) : data.length === 0 ? MULTI_SELECT.noOptions : MULTI_SELECT.noResult}
        styles={{ option: { minHeight: MULTI_SELECT.optionHeight } }}
        renderOption={({ option, checked }) => (
          <div style={{ display: 'flex', justifyContent: 'space-between', width: '100%', gap: 8 }}>
            <span>{option.label}</span>
            <Text span size="xs" c="dimmed" className="multiselect-hint">
              {checked ? MULTI_SELECT.deselectLabel : MULTI_SELECT.selectLabel}
            </Text>
          </div>
        )}
        {...rest}
      />
      {hidden > 0 && (
        <Text size="xs" c="dimmed" mt={2}>
          {value.length} chosen: {data.filter((d) => value.includes(d.value)).slice(0, MULTI_SELECT.shownPills).map((d) => d.label).join(', ')} {MULTI_SELECT.more(hidden)}
        </Text>
      )}
    </div>
  );
}
