/** The operator's own details (OPERATOR_NAME, OPERATOR_ADDRESS), printed on invoices and in emails. */
export type Operator = { name: string; address: string[] };
