import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CreatedBooking, CreateBookingInput } from '../../../../contract/bookings.ts';
import type { Country } from '../../../../contract/countries.ts';
import type {
  Addon,
  AddonInput,
  CreateTripInput,
  CustomField,
  Trip,
  TripDocument,
  TripPage,
  UpdateTripInput,
} from '../../../../contract/trips.ts';
import { api } from '../../../lib/api.ts';
import { uploadWithProgress } from '../../../lib/upload.ts';

export type TripFilter = { page: number; sort_by: 'date' | 'date-d' | 'name'; name_search: string; archived: boolean };

export const tripKeys = {
  all: ['trips'] as const,
  lists: ['trips', 'list'] as const,
  list: (f: TripFilter) => ['trips', 'list', f] as const,
  one: (id: number) => ['trips', id] as const,
  addons: (id: number) => ['trips', id, 'addons'] as const,
  fields: (id: number) => ['trips', id, 'fields'] as const,
  documents: (id: number) => ['trips', id, 'documents'] as const,
};

export const listTrips = (f: TripFilter) =>
  api<TripPage>('/api/trips', {
    query: { paged: 1, page: f.page, sort_by: f.sort_by, name_search: f.name_search, archived: f.archived ? 1 : 0 },
  });
export const getTrip = (id: number) => api<Trip>(`/api/trips/${id}`);
export const createTrip = (body: CreateTripInput) => api<Trip>('/api/trips', { method: 'POST', body });
export const updateTrip = (id: number, body: UpdateTripInput) =>
  api<Trip>(`/api/trips/${id}`, { method: 'PATCH', body });
export const archiveTrip = (id: number) => api<Trip>(`/api/trips/${id}/archive`, { method: 'POST' });
export const deleteTrip = (id: number) => api<void>(`/api/trips/${id}`, { method: 'DELETE' });
export const listCountries = () => api<Country[]>('/api/countries');
export const createBooking = (body: CreateBookingInput) =>
  api<CreatedBooking>('/api/bookings', { method: 'POST', body });

export const listAddons = (tripId: number) => api<Addon[]>(`/api/trips/${tripId}/addons`);
export const addAddon = (tripId: number, body: AddonInput) =>
  api<Addon>(`/api/trips/${tripId}/addons`, { method: 'POST', body });
export const updateAddon = (id: number, body: AddonInput) => api<Addon>(`/api/addons/${id}`, { method: 'PATCH', body });
export const removeAddon = (id: number) => api<void>(`/api/addons/${id}`, { method: 'DELETE' });

export const listFields = (tripId: number) => api<CustomField[]>('/api/customFields', { query: { trip_id: tripId } });
export const addField = (body: { trip_id: number; label: string; note: string }) =>
  api<CustomField>('/api/customFields', { method: 'POST', body });
export const updateField = (id: number, body: { label: string; note: string }) =>
  api<CustomField>(`/api/customFields/${id}`, { method: 'PUT', body });
export const deleteField = (id: number) => api<void>(`/api/customFields/${id}`, { method: 'DELETE' });

export const listDocuments = (tripId: number) => api<TripDocument[]>(`/api/trips/${tripId}/documents`);
export const addDocument = (body: { trip_id: number; name: string }) =>
  api<TripDocument>('/api/documents', { method: 'POST', body });
export const deleteDocument = (id: number) => api<void>(`/api/documents/${id}`, { method: 'DELETE' });
export function uploadDocument(id: number, file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('document_id', String(id));
  form.append('document_file', file);
  return uploadWithProgress<TripDocument>(`/api/documents/${id}/upload`, form, onProgress);
}

export const useTrips = (f: TripFilter) =>
  useQuery({ queryKey: tripKeys.list(f), queryFn: () => listTrips(f), placeholderData: keepPreviousData });
export const useTrip = (id: number) => useQuery({ queryKey: tripKeys.one(id), queryFn: () => getTrip(id) });
export const useCountries = () => useQuery({ queryKey: ['countries'], queryFn: listCountries, staleTime: Infinity });
export const useAddons = (id: number) => useQuery({ queryKey: tripKeys.addons(id), queryFn: () => listAddons(id) });
export const useFields = (id: number) => useQuery({ queryKey: tripKeys.fields(id), queryFn: () => listFields(id) });
export const useDocuments = (id: number) =>
  useQuery({ queryKey: tripKeys.documents(id), queryFn: () => listDocuments(id) });
