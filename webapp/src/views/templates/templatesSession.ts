import { newTemplatesSessionId } from '@/core/templates/search';

function randomHex(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

let current = newTemplatesSessionId(randomHex());

/**
 * The template area's session id ('templates-…'): a visit to the library from elsewhere starts a
 * new one, so its searches are asked afresh; moving between template pages and back keeps it, so
 * the list comes back as it was left.
 */
export const templatesSession = {
  current: () => current,
  renew: () => {
    current = newTemplatesSessionId(randomHex());
    return current;
  },
};
