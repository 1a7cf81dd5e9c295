import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { searchKey, TEMPLATES_PAGE_SIZE, type TemplatesSearch } from '@/core/templates/search';
import type { CollectionDetail, CollectionSummary, TemplateCategory, TemplateDetail, TemplateSummary, WorkflowTemplate } from '@/core/templates/types';
import { request, type RequestData } from './fetcher';

/** Spec 000 §9: the templates health check gives up after 2 s. */
export const TEMPLATES_HEALTH_TIMEOUT_MS = 2000;

/**
 * GET <templates host>/health, aborted after the timeout. True when the host answered with a
 * success status; the body is not used.
 */
export async function checkTemplatesHealth(host: string, timeoutMs = TEMPLATES_HEALTH_TIMEOUT_MS): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await request({ baseUrl: host, method: 'GET', endpoint: '/health', signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the templates host is reachable; undefined while unknown or when templates are off.
 * Template pages use it to tell a connection problem from an empty result.
 */
export function useTemplatesHealth(enabled: boolean, host: string): boolean | undefined {
  const { data } = useSWR(enabled && host !== '' ? ['templates-health', host] : null, ([, h]: [string, string]) => checkTemplatesHealth(h), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
  });
  return data;
}

/** Where template calls go: the templates host of the settings and the version sent along. */
export interface TemplatesEndpoint {
  host: string;
  version: string;
}

function templatesGet<T>(endpoint: TemplatesEndpoint, path: string, query?: RequestData, signal?: AbortSignal): Promise<T> {
  // n8n's client sends its version; no cookies or session id go to a host that may be foreign.
  return request({ baseUrl: endpoint.host, method: 'GET', endpoint: path, data: query, headers: { 'n8n-version': endpoint.version }, signal }) as Promise<T>;
}

export function getTemplateCategories(endpoint: TemplatesEndpoint): Promise<{ categories: TemplateCategory[] }> {
  return templatesGet(endpoint, '/templates/categories');
}

export function getTemplateCollections(endpoint: TemplatesEndpoint, query: TemplatesSearch): Promise<{ collections: CollectionSummary[] }> {
  return templatesGet(endpoint, '/templates/collections', { category: query.categories.join(','), search: query.search });
}

export function getTemplateWorkflows(endpoint: TemplatesEndpoint, query: TemplatesSearch, skip: number, rows = TEMPLATES_PAGE_SIZE): Promise<{ totalWorkflows: number; workflows: TemplateSummary[] }> {
  return templatesGet(endpoint, '/templates/workflows', { skip, rows, category: query.categories.join(','), search: query.search });
}

export function getTemplateCollection(endpoint: TemplatesEndpoint, id: string): Promise<{ collection: CollectionDetail }> {
  return templatesGet(endpoint, `/templates/collections/${encodeURIComponent(id)}`);
}

export function getTemplate(endpoint: TemplatesEndpoint, id: string): Promise<{ workflow: TemplateDetail }> {
  return templatesGet(endpoint, `/templates/workflows/${encodeURIComponent(id)}`);
}

/** The template as "Use this workflow" imports it. */
export function getWorkflowTemplate(endpoint: TemplatesEndpoint, id: string): Promise<WorkflowTemplate> {
  return templatesGet(endpoint, `/workflows/templates/${encodeURIComponent(id)}`);
}

const onceOptions = { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false, shouldRetryOnError: false } as const;

export function useTemplateCategories(endpoint: TemplatesEndpoint | null) {
  return useSWR(endpoint ? ['templates-categories', endpoint.host, endpoint.version] : null, () => getTemplateCategories(endpoint as TemplatesEndpoint), onceOptions);
}

/** Collections of a search; `session` is the template area's session id (a new visit asks again). */
export function useTemplateCollections(endpoint: TemplatesEndpoint | null, query: TemplatesSearch, session: string) {
  return useSWR(endpoint ? ['templates-collections', endpoint.host, searchKey(query), session] : null, () => getTemplateCollections(endpoint as TemplatesEndpoint, query), onceOptions);
}

/** Pages of ten templates of a search, loaded one after another as the list is scrolled. */
export function useTemplateWorkflowPages(endpoint: TemplatesEndpoint | null, query: TemplatesSearch, session: string) {
  return useSWRInfinite(
    (index: number) => (endpoint ? ['templates-workflows', endpoint.host, searchKey(query), session, index] : null),
    ([, , , , index]: [string, string, string, string, number]) => getTemplateWorkflows(endpoint as TemplatesEndpoint, query, index * TEMPLATES_PAGE_SIZE),
    { ...onceOptions, revalidateFirstPage: false },
  );
}

export function useTemplate(endpoint: TemplatesEndpoint | null, id: string | undefined) {
  return useSWR(endpoint && id ? ['templates-workflow', endpoint.host, id] : null, () => getTemplate(endpoint as TemplatesEndpoint, id as string), onceOptions);
}

export function useTemplateCollection(endpoint: TemplatesEndpoint | null, id: string | undefined) {
  return useSWR(endpoint && id ? ['templates-collection', endpoint.host, id] : null, () => getTemplateCollection(endpoint as TemplatesEndpoint, id as string), onceOptions);
}
