import { useQuery } from '@tanstack/react-query';
import type {
  CreateInvoiceInput,
  CreateStandardInvoiceInput,
  CreateTransactionInput,
  Invoice,
  Transaction,
} from '../../../../contract/invoices.ts';
import type { PayLinkReply } from '../../../../contract/card-payments.ts';
import { api } from '../../../lib/api.ts';
import { bookingKeys } from './bookings.ts';

export const invoiceKeys = { forBooking: (bookingId: number) => ['invoices', bookingId] as const };

export const useInvoices = (bookingId: number) =>
  useQuery({
    queryKey: invoiceKeys.forBooking(bookingId),
    queryFn: () => api<Invoice[]>('/api/invoices', { query: { booking_id: bookingId } }),
  });

export const createStandardInvoice = (bookingId: number, body: CreateStandardInvoiceInput) =>
  api<Invoice>(`/api/bookings/${bookingId}/invoices`, { method: 'POST', body });
export const createInvoice = (body: CreateInvoiceInput) => api<Invoice>('/api/invoices', { method: 'POST', body });
export const deleteInvoice = (id: number) => api<void>(`/api/invoices/${id}`, { method: 'DELETE' });
export const sendInvoice = (bookingId: number, invoiceId: number) =>
  api<{ message: string; sent_at: string }>(`/api/bookings/${bookingId}/invoices/${invoiceId}/send`, {
    method: 'POST',
  });
/** The key makes a retry (or a double click) record the payment once. */
export const createTransaction = (body: CreateTransactionInput, idempotencyKey: string) =>
  api<Transaction & { message: string }>('/api/transactions', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
export const createPayLink = (invoiceId: number) =>
  api<PayLinkReply>(`/api/invoices/${invoiceId}/pay-link`, { method: 'POST' });
export const deleteTransaction = (id: number) => api<void>(`/api/transactions/${id}`, { method: 'DELETE' });

/**
 * What an invoice, payment or refund changes: the booking's invoices, and the booking itself (its
 * add-ons' invoiced mark) with every query keyed under it — its History and Emails panels
 * (bookingKeys.history(id) starts with bookingKeys.one(id), so naming it too would fetch it twice).
 */
export const invoiceChangeKeys = (bookingId: number) => [invoiceKeys.forBooking(bookingId), bookingKeys.one(bookingId)];
