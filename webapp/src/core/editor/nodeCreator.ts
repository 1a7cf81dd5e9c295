import { HTTP_REQUEST_NODE_TYPE, isTriggerType, STICKY_NOTE_TYPE, WEBHOOK_NODE_TYPE, type NodeTypeDescription } from '@/core/workflow/nodeTypes';

export type CreatorTab = 'All' | 'Regular' | 'Trigger';
export const CREATOR_TABS: readonly CreatorTab[] = ['All', 'Regular', 'Trigger'];

export const CORE_NODES_CATEGORY = 'Core Nodes';
export const CUSTOM_NODES_CATEGORY = 'Custom Nodes';
/** Category order of the picker; categories not listed follow alphabetically. */
const CATEGORY_ORDER = [CORE_NODES_CATEGORY, CUSTOM_NODES_CATEGORY];
const SUBCATEGORY_ORDER = ['Flow', 'Files', 'Data Transformation', 'Helpers'];

/** One row of the picker (spec 001 §2: items of type category, subcategory or node). */
export type CreatorItem =
  | { type: 'category'; key: string; category: string; expanded: boolean; count: number }
  | { type: 'subcategory'; key: string; category: string; subcategory: string; expanded: boolean; count: number }
  | { type: 'node'; key: string; category: string; subcategory?: string; nodeType: NodeTypeDescription };

/** Types the picker can offer: not hidden, highest version only, not the sticky note. */
export function offeredTypes(types: readonly NodeTypeDescription[]): NodeTypeDescription[] {
  const latest = new Map<string, NodeTypeDescription>();
  for (const type of types) {
    if (type.hidden || type.name === STICKY_NOTE_TYPE) continue;
    const seen = latest.get(type.name);
    if (!seen || versionOf(type) > versionOf(seen)) latest.set(type.name, type);
  }
  return [...latest.values()];
}

function versionOf(type: NodeTypeDescription): number {
  return Array.isArray(type.version) ? Math.max(...type.version) : type.version;
}

export function matchesTab(type: NodeTypeDescription, tab: CreatorTab): boolean {
  if (tab === 'All') return true;
  return tab === 'Trigger' ? isTriggerType(type) : !isTriggerType(type);
}

/** Search (spec 001 §5): trimmed, case-insensitive, on the display name or any alias. */
export function matchesSearch(type: NodeTypeDescription, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  if (type.displayName.toLowerCase().includes(needle)) return true;
  return (type.codex?.alias ?? []).some((alias) => alias.toLowerCase().includes(needle));
}

function byDisplayName(a: NodeTypeDescription, b: NodeTypeDescription): number {
  return a.displayName.localeCompare(b.displayName);
}

/** Search results: matching types of the tab, names starting with the search first. */
export function searchResults(types: readonly NodeTypeDescription[], tab: CreatorTab, search: string): NodeTypeDescription[] {
  const needle = search.trim().toLowerCase();
  const found = offeredTypes(types).filter((type) => matchesTab(type, tab) && matchesSearch(type, search));
  const starts = (type: NodeTypeDescription) => (type.displayName.toLowerCase().startsWith(needle) ? 0 : 1);
  return found.sort((a, b) => starts(a) - starts(b) || byDisplayName(a, b));
}

function categoriesOf(type: NodeTypeDescription): string[] {
  const categories = type.codex?.categories ?? [];
  return categories.length > 0 ? categories : [CUSTOM_NODES_CATEGORY];
}

function ordered(values: Iterable<string>, order: readonly string[]): string[] {
  const rank = (value: string) => {
    const index = order.indexOf(value);
    return index < 0 ? order.length : index;
  };
  return [...values].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The visible rows of the category tree for a tab: each category, then (when expanded) its
 * subcategories and the nodes without one; a subcategory's nodes follow it when it is expanded.
 * Expanded keys are `category` and `category/subcategory`.
 */
export function categoryTree(types: readonly NodeTypeDescription[], tab: CreatorTab, expanded: ReadonlySet<string>): CreatorItem[] {
  const tree = new Map<string, { direct: NodeTypeDescription[]; subs: Map<string, NodeTypeDescription[]> }>();
  for (const type of offeredTypes(types)) {
    if (!matchesTab(type, tab)) continue;
    for (const category of categoriesOf(type)) {
      const entry = tree.get(category) ?? { direct: [], subs: new Map<string, NodeTypeDescription[]>() };
      tree.set(category, entry);
      const subs = type.codex?.subcategories?.[category] ?? [];
      if (subs.length === 0) entry.direct.push(type);
      for (const sub of subs) entry.subs.set(sub, [...(entry.subs.get(sub) ?? []), type]);
    }
  }
  const items: CreatorItem[] = [];
  for (const category of ordered(tree.keys(), CATEGORY_ORDER)) {
    const entry = tree.get(category);
    if (!entry) continue;
    const count = new Set([...entry.direct, ...[...entry.subs.values()].flat()].map((t) => t.name)).size;
    const open = expanded.has(category);
    items.push({ type: 'category', key: category, category, expanded: open, count });
    if (!open) continue;
    for (const subcategory of ordered(entry.subs.keys(), SUBCATEGORY_ORDER)) {
      const nodes = (entry.subs.get(subcategory) ?? []).sort(byDisplayName);
      const key = `${category}/${subcategory}`;
      const subOpen = expanded.has(key);
      items.push({ type: 'subcategory', key, category, subcategory, expanded: subOpen, count: nodes.length });
      if (subOpen) for (const nodeType of nodes) items.push({ type: 'node', key: `${key}/${nodeType.name}`, category, subcategory, nodeType });
    }
    for (const nodeType of entry.direct.sort(byDisplayName)) items.push({ type: 'node', key: `${category}/${nodeType.name}`, category, nodeType });
  }
  return items;
}

/** The first category starts expanded. */
export function initialExpanded(types: readonly NodeTypeDescription[], tab: CreatorTab): Set<string> {
  const first = categoryTree(types, tab, new Set())[0];
  return new Set(first ? [first.key] : []);
}

/** Node types the no-results view suggests. */
export const NO_RESULTS_SUGGESTIONS = [HTTP_REQUEST_NODE_TYPE, WEBHOOK_NODE_TYPE];

/** Whether the node details view opens on a node just added from the creator (n8n: all but sticky notes). */
export function opensAfterAdding(typeName: string): boolean {
  return typeName !== STICKY_NOTE_TYPE;
}
