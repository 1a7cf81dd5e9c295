import useSWR, { type SWRResponse } from 'swr';
import { restApi } from './fetcher';

/** The base64 content of stored binary data (GET /rest/data/:id answers `{data: "<base64>"}`). */
export function getBinaryData(id: string): Promise<string> {
  return restApi.get<string>(`/data/${encodeURIComponent(id)}`);
}

/** Fetches stored binary data by id; a null id fetches nothing. Binary data never changes. */
export function useBinaryData(id: string | null): SWRResponse<string, Error> {
  return useSWR<string, Error>(id === null ? null : ['/data', id], () => getBinaryData(id as string), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    revalidateOnReconnect: false,
  });
}
