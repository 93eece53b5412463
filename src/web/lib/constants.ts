/** Spec §9: how long 'Discount updated' stays on screen. */
export const DISCOUNT_UPDATED_MS = 2000;
