import { HistoryPanel } from '../../components/history-panel.tsx';
import { useCan } from '../../lib/session.tsx';
import { AddonsPanel } from './addons-panel.tsx';
import { ChangesPanel } from './changes-panel.tsx';
import { tripKeys } from './api/trips.ts';
import { CustomFieldsPanel } from './custom-fields-panel.tsx';
import { DocumentsPanel } from './documents-panel.tsx';
import { FundraisingPanel } from './fundraising-panel.tsx';
import { GroupsPanel } from './groups-panel.tsx';
import { OnlineBookingPanel } from './online-booking-panel.tsx';
import { WaitingListPanel } from './waiting-list-panel.tsx';
import { PaymentPlanPanel } from './payment-plan-panel.tsx';

/**
 * The panels under the trip's form: its online booking and waiting list, a school trip's groups, payment plan, fundraising, fees for changes, add-ons, custom fields, documents and history. They
 * share the trip's query key, so a change in one refreshes the history. The payment plan and the fees
 * for changes are finance's, the fundraising the charities': a member who may not read them sees no panel.
 */
export function TripPanels({ tripId, editable, type }: { tripId: number; editable: boolean; type: string }) {
  const may = useCan();
  return (
    <>
      <OnlineBookingPanel tripId={tripId} tripType={type} />
      <WaitingListPanel tripId={tripId} />
      {type === 'school' && may('bookings', 'read') && <GroupsPanel tripId={tripId} editable={editable} />}
      {may('finance', 'read') && <PaymentPlanPanel tripId={tripId} editable={editable} />}
      {may('charities', 'read') && <FundraisingPanel tripId={tripId} editable={editable} />}
      {may('finance', 'read') && <ChangesPanel tripId={tripId} editable={editable} />}
      <AddonsPanel tripId={tripId} editable={editable} />
      <CustomFieldsPanel tripId={tripId} />
      <DocumentsPanel tripId={tripId} />
      <HistoryPanel url={`/api/trips/${tripId}/history`} queryKey={tripKeys.one(tripId)} />
    </>
  );
}
