import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { currentAppPaths } from '@/core/basePath';
import { buildRouteObjects } from '@/router/routeObjects';
import { AppProviders } from './AppProviders';

const router = createBrowserRouter(buildRouteObjects(), { basename: currentAppPaths().routerBasename });

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
