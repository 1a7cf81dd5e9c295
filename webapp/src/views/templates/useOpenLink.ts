import { useHref, useNavigate } from 'react-router';

/**
 * A click that goes to `to` in the app, or to a new tab with Ctrl or Meta held (spec 000 §2), for
 * cards that hold buttons of their own and so cannot be links.
 */
export function useOpenLink(to: string): (event: { ctrlKey: boolean; metaKey: boolean }) => void {
  const navigate = useNavigate();
  const href = useHref(to);
  return (event) => {
    if (event.ctrlKey || event.metaKey) {
      window.open(href, '_blank', 'noopener');
      return;
    }
    void navigate(to);
  };
}
