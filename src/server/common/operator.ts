import type { PayLinkSettings } from './pay-links.ts';
import type { PortalLinkSettings } from './portal-links.ts';

/**
 * The operator's own details (OPERATOR_NAME, OPERATOR_ADDRESS), printed on invoices and in
 * emails, and how its pay links are made (none when card payments are not set up).
 */
export type Operator = {
  name: string;
  address: string[];
  payLinks?: PayLinkSettings | undefined;
  /** how the emails' links to the traveller's own pages are made */
  portalLinks?: PortalLinkSettings | undefined;
  /** OPERATOR_BANK_DETAILS: how to pay by bank transfer, shown to travellers when card payments are not set up */
  bankDetails?: string | undefined;
};
