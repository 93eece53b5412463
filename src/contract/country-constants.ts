// Passport rules by destination, without zod: the settings screen shows them without
// loading the contract's schemas (decision 005).

/** months a passport must still be valid after the trip's return, unless the country says otherwise */
export const PASSPORT_MONTHS_DEFAULT = 6;
export const PASSPORT_MONTHS_MAX = 24;
export const PASSPORT_NOTE_MAX = 300;
