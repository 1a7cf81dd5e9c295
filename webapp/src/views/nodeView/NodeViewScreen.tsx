import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { currentAppPaths } from '../../core/basePath';
import type { EditorMode } from './EditorContext';

// The editor (canvas library included) loads with its route, not with the app shell.
const loadNodeView = () => import('./NodeView');
const NodeView = lazy(() => loadNodeView().then((module) => ({ default: module.NodeView })));

// Opened on an editor route, the page fetches the editor's code while it still starts (settings,
// sign-in) rather than after.
const EDITOR_PATH = /^\/(workflow(\/|$)|execution\/|workflows\/demo)/;
const { basePath } = currentAppPaths();
if (typeof window !== 'undefined' && EDITOR_PATH.test(`/${window.location.pathname.slice(basePath.length)}`)) void loadNodeView();

/** The editor screen for a route: new, existing, execution or demo. */
export function NodeViewScreen({ mode }: { mode: EditorMode }) {
  return (
    <Suspense
      fallback={
        <Center h="100vh">
          <Loader />
        </Center>
      }
    >
      <NodeView mode={mode} />
    </Suspense>
  );
}
