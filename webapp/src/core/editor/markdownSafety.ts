/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Links in sticky notes may only go to web, mail or relative addresses. */
export function safeHref(href: string): string {
  const trimmed = href.trim();
  return /^(https?:|mailto:|\/|#)/i.test(trimmed) ? trimmed : '#';
}
