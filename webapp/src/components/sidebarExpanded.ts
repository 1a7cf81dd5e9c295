import { useCallback, useState } from 'react';

/** Where the main sidebar remembers whether it shows its labels ("true" when expanded). */
export const SIDEBAR_EXPANDED_KEY = 'flowmill.mainSidebar.expanded';

function stored(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_EXPANDED_KEY) === 'true';
  } catch {
    // Storage can be off (private mode, policy): the sidebar starts collapsed.
    return false;
  }
}

/** Whether the main sidebar is expanded, remembered in localStorage across visits. */
export function useSidebarExpanded(): [boolean, (expanded: boolean) => void] {
  const [expanded, setState] = useState(stored);
  const set = useCallback((value: boolean) => {
    setState(value);
    try {
      window.localStorage.setItem(SIDEBAR_EXPANDED_KEY, String(value));
    } catch {
      // Not remembered; the toggle still works for this page.
    }
  }, []);
  return [expanded, set];
}
