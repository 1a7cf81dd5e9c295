import { notifications } from '@mantine/notifications';
import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/AppProviders';
import { afterEach, beforeEach, vi } from 'vitest';
import { buildRouteObjects } from '@/router/routeObjects';
import { FakeEventSource } from './fakeEventSource';

/** Wraps a component in the app's providers with a fresh SWR cache. */
export function renderWithProviders(ui: ReactNode): RenderResult {
  return render(<AppProviders swrCache={() => new Map()}>{ui}</AppProviders>);
}

/** Renders the whole app (startup, guard, frame and screens) at a path. */
export function renderApp(path: string): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [path] });
  const result = renderWithProviders(<RouterProvider router={router} />);
  return { ...result, router };
}

/** The router location as one string: path plus query. */
export function currentUrl(router: ReturnType<typeof createMemoryRouter>): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

/** For whole-app tests: a fake push channel before each test; toasts and stubbed globals cleared after. */
export function setUpAppTests(): void {
  beforeEach(() => {
    FakeEventSource.reset();
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    act(() => notifications.clean());
    vi.unstubAllGlobals();
  });
}
