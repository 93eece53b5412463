import { useQuery } from '@tanstack/react-query';
import type { PassportRule, PassportRuleInput } from '../../../../contract/countries.ts';
import { api } from '../../../lib/api.ts';

export const passportRuleKeys = { all: ['passport-rules'] as const };

export const usePassportRules = () =>
  useQuery({ queryKey: passportRuleKeys.all, queryFn: () => api<PassportRule[]>('/api/countries/passport-rules') });

export const savePassportRule = (countryId: number, body: PassportRuleInput) =>
  api<PassportRule>(`/api/countries/${countryId}/passport-rule`, { method: 'PUT', body });
