import type { RouteObject } from 'react-router';
import { ROUTES } from '@/core/routes';
import { AppRoot, type RouteHandle } from './AppRoot';
import { SCREENS } from './screens';

/** The spec route table as react-router route objects, all under the startup/guard root. */
export function buildRouteObjects(): RouteObject[] {
  return [
    {
      element: <AppRoot />,
      children: ROUTES.map((route) => ({
        path: route.path,
        element: SCREENS[route.name],
        handle: { route } satisfies RouteHandle,
      })),
    },
  ];
}
