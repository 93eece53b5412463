import { useQuery } from '@tanstack/react-query';
import type {
  AuthorizedApplication,
  ClientInput,
  CreatedPersonalToken,
  OAuthClient,
  PersonalToken,
  PersonalTokenInput,
  Scope,
} from '../../../../contract/oauth.ts';
import { api } from '../../../lib/api.ts';

export const developerKeys = {
  clients: ['oauth', 'clients'] as const,
  tokens: ['oauth', 'personal-access-tokens'] as const,
  scopes: ['oauth', 'scopes'] as const,
  applications: ['oauth', 'tokens'] as const,
};

// spec §7
export const listClients = () => api<OAuthClient[]>('/oauth/clients');
export const createClient = (body: ClientInput) => api<OAuthClient>('/oauth/clients', { method: 'POST', body });
export const updateClient = (id: string, body: ClientInput) =>
  api<OAuthClient>(`/oauth/clients/${encodeURIComponent(id)}`, { method: 'PUT', body: { id, ...body } });
export const deleteClient = (id: string) => api<void>(`/oauth/clients/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const listPersonalTokens = () => api<PersonalToken[]>('/oauth/personal-access-tokens');
export const listScopes = () => api<Scope[]>('/oauth/scopes');
export const createPersonalToken = (body: PersonalTokenInput) =>
  api<CreatedPersonalToken>('/oauth/personal-access-tokens', { method: 'POST', body });
export const deletePersonalToken = (id: string) =>
  api<void>(`/oauth/personal-access-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const listApplications = () => api<AuthorizedApplication[]>('/oauth/tokens');
export const revokeApplication = (id: string) =>
  api<void>(`/oauth/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const useClients = () => useQuery({ queryKey: developerKeys.clients, queryFn: listClients });
export const usePersonalTokens = () => useQuery({ queryKey: developerKeys.tokens, queryFn: listPersonalTokens });
export const useScopes = () => useQuery({ queryKey: developerKeys.scopes, queryFn: listScopes, staleTime: Infinity });
export const useApplications = () => useQuery({ queryKey: developerKeys.applications, queryFn: listApplications });
