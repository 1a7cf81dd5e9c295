import { Marked } from 'marked';
import { escapeHtml, safeHref } from '@/core/editor/markdownSafety';

/** Template and collection descriptions: raw HTML is shown as text, unsafe link targets dropped. */
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
  },
  walkTokens(token) {
    if (token.type === 'link' || token.type === 'image') token.href = safeHref(token.href);
  },
});

export function renderDescription(markdown: string): string {
  return marked.parse(markdown) as string;
}
