import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { parseTemplatesSearch, templatesSearchParams, toggleCategory, TEMPLATES_SEARCH_DEBOUNCE_MS, type TemplatesSearch } from '@/core/templates/search';

export interface TemplatesSearchState {
  /** The search the results are for: what the URL says. */
  query: TemplatesSearch;
  /** The search field's text, ahead of the query while the debounce runs. */
  text: string;
  setText: (text: string) => void;
  /** Empties the search field and the query at once. */
  clearText: () => void;
  /** Selects or unselects a category; null is All. */
  toggle: (id: number | null) => void;
  /** The categories the page opened with, listed first by the filter. */
  preselected: readonly number[];
}

/**
 * The search page's state kept in its URL (`search`, `categories`): typing updates the URL
 * 500 ms after the last keystroke, a category click at once, each as a history entry, so Back
 * returns to the previous search; a URL change (Back, a link) updates the field.
 */
export function useTemplatesSearchState(): TemplatesSearchState {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseTemplatesSearch(params), [params]);
  const [text, setTextState] = useState(query.search);
  const [preselected] = useState(query.categories);
  // The URL's search as last seen: when it changes under the field (Back), the field follows.
  const [seen, setSeen] = useState(query.search);
  if (seen !== query.search) {
    setSeen(query.search);
    setTextState(query.search);
  }

  useEffect(() => {
    if (text === query.search) return undefined;
    const timer = setTimeout(() => setParams(templatesSearchParams({ ...query, search: text })), TEMPLATES_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query, setParams]);

  return {
    query,
    text,
    setText: setTextState,
    clearText: () => {
      setTextState('');
      if (query.search !== '') setParams(templatesSearchParams({ ...query, search: '' }));
    },
    toggle: (id) => setParams(templatesSearchParams({ search: text, categories: toggleCategory(query.categories, id) })),
    preselected,
  };
}
