import { Divider, Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { BookingDetail } from '../../../contract/bookings.ts';
import type { MyBookingDetail } from '../../../contract/my.ts';
import { api } from '../../lib/api.ts';
import { useCan } from '../../lib/session.tsx';
import { DetailsForm, PassportPhoto, QuestionsForm } from '../../traveller/details-form.tsx';
import { bookingKeys } from './api/bookings.ts';

/** The booking's traveller form as the traveller's own page has it, filled in by staff from a call or a paper form. */
function formOf(b: BookingDetail): MyBookingDetail['form'] {
  return {
    title: b.title,
    first_name: b.first_name,
    last_name: b.last_name,
    date_of_birth: b.date_of_birth,
    mobile: b.mobile,
    address_1: b.address_1,
    address_2: b.address_2,
    address_3: b.address_3,
    address_4: b.address_4,
    post_code: b.post_code,
    room_type: b.room_type,
    share_with: b.share_with,
    passport_number: b.passport_number,
    passport_issue: b.passport_issue,
    passport_expiry: b.passport_expiry,
    nationality: b.nationality,
    insurance_company: b.insurance_company,
    insurance_policy_number: b.insurance_policy_number,
    insurance_telephone: b.insurance_telephone,
    nok_name: b.nok_name,
    nok_relationship: b.nok_relationship,
    nok_telephone: b.nok_telephone,
    dietary: b.dietary,
    // null only for a team without traveller data, which is not offered the form
    medical_conditions: b.medical_conditions ?? false,
    medication: b.medication,
    medical_detail: b.medical_detail,
  };
}

/**
 * "Traveller form" on the booking page: every field the traveller fills in on their own page,
 * the passport photo and the trip's questions, with the same contract and rules (PUT
 * /api/bookings/{id}/traveller-form, …/answers, POST …/passport-image: the photo only for a team
 * that may change the traveller data).
 */
export function TravellerFormModal({
  b,
  opened: open,
  onClose,
}: {
  b: BookingDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const may = useCan();
  const reload = () => void queryClient.invalidateQueries({ queryKey: bookingKeys.one(b.id) });
  const booking = {
    id: b.id,
    form: formOf(b),
    passport_rule: null,
    passport_check: null,
    questions: b.custom_fields.map((f) => ({ id: f.id, label: f.label, note: f.note, answer: f.answer ?? '' })),
    passport_photo: { uploaded_at: null, checked: true },
  };
  return (
    <>
      <Modal
        opened={open}
        onClose={onClose}
        title={`Traveller form: ${b.first_name} ${b.last_name}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            The form the traveller fills in on their own pages, for when they phone or post it. The same rules apply;
            the History records who changed what.
          </Text>
          {open && (
            <DetailsForm
              booking={booking}
              label="Traveller form"
              submitLabel="Save the traveller form"
              onSaved={reload}
              save={async (values) => {
                const saved = await api<BookingDetail>(`/api/bookings/${b.id}/traveller-form`, {
                  method: 'PUT',
                  body: values,
                });
                reload();
                return { form: formOf(saved) };
              }}
            />
          )}
          <Divider />
          <Title order={3} size="h5">
            Passport photo page
          </Title>
          <Text size="sm">{b.has_passport_image ? 'A photo page is on file.' : 'No photo page on file yet.'}</Text>
          {may('traveller_data') && (
            <PassportPhoto booking={booking} onSaved={reload} url={`/api/bookings/${b.id}/passport-image`} />
          )}
          {booking.questions.length > 0 && (
            <>
              <Divider />
              <Title order={3} size="h5">
                The trip’s questions
              </Title>
              <QuestionsForm
                booking={booking}
                onSaved={reload}
                url={`/api/bookings/${b.id}/answers`}
                submitLabel="Save the answers"
              />
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}
