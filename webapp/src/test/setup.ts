import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The app and the end-to-end tests mark elements with data-test-id (ARCHITECTURE.md §6).
configure({ testIdAttribute: 'data-test-id' });

// jsdom lacks the layout APIs Mantine reads.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// Mantine's Combobox scrolls the selected option into view on a timer, after a test may be done.
Element.prototype.scrollIntoView ??= () => undefined;

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// CodeMirror measures text through ranges, which jsdom does not lay out.
if (!Range.prototype.getClientRects) {
  const empty = (): DOMRectList => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects = empty;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

Object.defineProperty(window, 'scrollTo', { writable: true, value: () => undefined });

afterEach(() => {
  cleanup();
});
