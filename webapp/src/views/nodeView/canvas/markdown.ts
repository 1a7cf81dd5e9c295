import { Marked, type Tokens } from 'marked';
import { escapeHtml, safeHref } from '@/core/editor/markdownSafety';

/** Sticky-note markdown: raw HTML is shown as text and unsafe link targets are dropped. */
const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
  },
  walkTokens(token) {
    if (token.type === 'link' || token.type === 'image') token.href = safeHref(token.href);
  },
});

export function renderMarkdown(content: string): string {
  return marked.parse(content) as string;
}
