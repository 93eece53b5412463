import { ROLE_NAMES } from '../../../contract/constants.ts';

export const roleOptions = Object.entries(ROLE_NAMES).map(([value, label]) => ({ value, label }));
