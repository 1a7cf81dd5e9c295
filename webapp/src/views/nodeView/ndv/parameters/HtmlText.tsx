import { Fragment, type ReactNode } from 'react';
import { safeHref } from '@/core/editor/markdownSafety';

const INLINE_TAGS = new Set(['b', 'strong', 'i', 'em', 'code', 'p', 'ul', 'ol', 'li', 'br']);

function renderNode(node: ChildNode, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = renderChildren(element);
  if (tag === 'a') {
    return (
      <a key={key} href={safeHref(element.getAttribute('href') ?? '')} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  if (tag === 'br') return <br key={key} />;
  if (INLINE_TAGS.has(tag)) {
    const Tag = tag as 'b';
    return <Tag key={key}>{children}</Tag>;
  }
  return <Fragment key={key}>{children}</Fragment>;
}

function renderChildren(parent: ParentNode): ReactNode[] {
  return Array.from(parent.childNodes, renderNode);
}

/**
 * Text from a node description that may hold simple HTML (links, bold, code, lists). Only those
 * elements are kept, without attributes except safe link targets; everything else shows as text.
 */
export function HtmlText({ html }: { html: string }) {
  if (!/[<&]/.test(html)) return <>{html}</>;
  const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return <>{renderChildren(document.body)}</>;
}
