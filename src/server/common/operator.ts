import type { PayLinkSettings } from './pay-links.ts';

/**
 * The operator's own details (OPERATOR_NAME, OPERATOR_ADDRESS), printed on invoices and in
 * emails, and how its pay links are made (none when card payments are not set up).
 */
export type Operator = { name: string; address: string[]; payLinks?: PayLinkSettings | undefined };
