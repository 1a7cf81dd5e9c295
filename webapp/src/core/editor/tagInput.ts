import type { Tag } from '@/core/workflow/types';

/** What the typed text of the tags input stands for: an existing tag (same name, any case) or a new one. */
export function typedTag(tags: readonly Tag[], text: string): { id: string } | { create: string } | null {
  const name = text.trim();
  if (name === '') return null;
  const existing = tags.find((tag) => tag.name.toLowerCase() === name.toLowerCase());
  return existing ? { id: existing.id } : { create: name };
}

/** The ids with one more tag, kept once and in the order picked. */
export function withTagId(ids: readonly string[], id: string): string[] {
  return ids.includes(id) ? [...ids] : [...ids, id];
}
