import { Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BookingListQuery } from '../../../contract/bookings.ts';
import {
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_COLUMNS,
  EXPORT_PAGE_SIZE,
  type ExportColumn,
  PASSPORT_ZIP_DELAY_MS,
} from '../../../contract/booking-constants.ts';
import { TRAVELLER_DATA_FIELDS } from '../../../contract/team-constants.ts';
import { useCan } from '../../lib/session.tsx';

const KEY = 'tripdesk.exportColumns';

function keptColumns(): ExportColumn[] {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as ExportColumn[] | null;
    return Array.isArray(kept) && kept.length ? kept : DEFAULT_EXPORT_COLUMNS;
  } catch {
    return DEFAULT_EXPORT_COLUMNS;
  }
}

/** Spec §7: the download is a form GET to /bookings/export with the list's search fields. */
function submitExport(fields: Record<string, unknown>) {
  const form = document.createElement('form');
  form.method = 'get';
  form.action = '/bookings/export';
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = Array.isArray(value) ? `${name}[]` : name;
      input.value = String(v);
      form.appendChild(input);
    }
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}

export function DownloadDialog({
  opened,
  onClose,
  query,
}: {
  opened: boolean;
  onClose: () => void;
  query: BookingListQuery;
}) {
  // the passport, insurance, next-of-kin and medical columns and the passport images are traveller data
  const seesTravellerData = useCan()('traveller_data', 'read');
  const offered = EXPORT_COLUMNS.filter(
    (c) => seesTravellerData || !(TRAVELLER_DATA_FIELDS as readonly string[]).includes(c.key),
  );
  const [columns, setColumns] = useState<ExportColumn[]>(() => {
    const kept = keptColumns().filter((k) => offered.some((c) => c.key === k));
    return kept.length ? kept : DEFAULT_EXPORT_COLUMNS;
  });
  const [passports, setPassports] = useState(false);
  const toggle = (key: ExportColumn) =>
    setColumns((cs) =>
      cs.includes(key)
        ? cs.filter((c) => c !== key)
        : offered.map((c) => c.key).filter((k) => k === key || cs.includes(k)),
    );

  const download = () => {
    sessionStorage.setItem(KEY, JSON.stringify(columns));
    const { page: _page, per_page: _perPage, ...search } = query;
    submitExport({ ...search, format: 'xls', perPage: EXPORT_PAGE_SIZE, columns: JSON.stringify(columns) });
    if (passports)
      setTimeout(
        () => submitExport({ ...search, format: 'passportZip', perPage: EXPORT_PAGE_SIZE }),
        PASSPORT_ZIP_DELAY_MS,
      );
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Download bookings"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Text size="sm">
          A spreadsheet of the bookings this search finds (up to {EXPORT_PAGE_SIZE.toLocaleString('en-GB')}), with these
          columns:
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" role="group" aria-label="Columns">
          {offered.map((c) => (
            <Checkbox key={c.key} label={c.label} checked={columns.includes(c.key)} onChange={() => toggle(c.key)} />
          ))}
        </SimpleGrid>
        {seesTravellerData && (
          <Checkbox
            label="Also download their passport images (a zip, two seconds after the spreadsheet)"
            checked={passports}
            onChange={(e) => setPassports(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={download} disabled={columns.length === 0}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
