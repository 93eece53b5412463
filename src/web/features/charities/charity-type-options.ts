import { CHARITY_TYPES } from '../../../contract/constants.ts';

export const charityTypeOptions = Object.entries(CHARITY_TYPES).map(([value, label]) => ({ value, label }));
