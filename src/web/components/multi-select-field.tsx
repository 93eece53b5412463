import { MultiSelect, Pill, Text, type MultiSelectProps } from '@mantine/core';
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

export function MultiSelectField({ data, value, onChange, max, readOnly, disabled, ...rest }: Props) {
  const [search, setSearch] = useState('');
  const full = max !== undefined && value.length >= max;
  const shown = MULTI_SELECT.shownPills;
  const hidden = Math.max(0, value.length - shown);
  const hiddenLabels = value.slice(shown).map((v) => data.find((d) => d.value === v)?.label ?? v);
  return (
    <MultiSelect
      searchable
      clearable
      data={data}
      value={value}
      onChange={onChange}
      readOnly={readOnly}
      disabled={disabled}
      searchValue={search}
      onSearchChange={setSearch}
      limit={MULTI_SELECT.limit}
      maxDropdownHeight={MULTI_SELECT.maxDropdownHeight}
      maxValues={max}
      placeholder={value.length ? undefined : MULTI_SELECT.placeholder}
      nothingFoundMessage={
        full ? MULTI_SELECT.maxReached(max!) : data.length === 0 ? MULTI_SELECT.noOptions : MULTI_SELECT.noResult
      }
      styles={{ option: { minHeight: MULTI_SELECT.optionHeight } }}
      // the first few choices as pills, then the spec's 'and N more' inside the field; the
      // others stay chosen (ticked in the list, removable there or with Backspace)
      renderPill={({ option, value: v, onRemove }) => {
        const index = value.indexOf(String(v));
        if (index < shown) {
          return (
            <Pill
              withRemoveButton={!readOnly && !disabled && !option?.disabled}
              onRemove={onRemove}
              disabled={disabled}
            >
              {option?.label ?? v}
            </Pill>
          );
        }
        if (index > shown) return null;
        return (
          <Text
            span
            size="sm"
            c="dimmed"
            className="multiselect-more"
            title={hiddenLabels.join(', ')}
            style={{ alignSelf: 'center', whiteSpace: 'nowrap' }}
          >
            {MULTI_SELECT.more(hidden)}
          </Text>
        );
      }}
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
  );
}
