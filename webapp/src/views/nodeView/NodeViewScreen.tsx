import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { currentAppPaths } from '@/core/basePath';
import type { EditorMode } from './EditorContext';
import { prefetchOpening } from './openingPrefetch';

type NodeViewComponent = (props: { mode: EditorMode }) => ReactNode;

// The editor (canvas library included) loads with its route, not with the app shell.
let loadedNodeView: NodeViewComponent | null = null;
const loadNodeView = () =>
  import('./NodeView').then((module) => {
    loadedNodeView = module.NodeView;
    return module;
  });
const LazyNodeView = lazy(() => loadNodeView().then((module) => ({ default: module.NodeView })));

// Opened on an editor route, the page fetches the editor's code while it still starts (settings,
// sign-in) rather than after.
const EDITOR_PATH = /^\/(workflow(\/|$)|execution\/|workflows\/demo)/;
const { basePath } = currentAppPaths();
const startPath = typeof window !== 'undefined' ? `/${window.location.pathname.slice(basePath.length).replace(/^\/+/, '')}` : '';
if (EDITOR_PATH.test(startPath)) {
  void loadNodeView();
  // Its data too: node types, and the saved workflow with its types' descriptions.
  prefetchOpening(startPath);
}

/**
 * The editor screen for a route: new, existing, execution or demo. Once the editor's code is in
 * (fetched early, above), it is rendered directly: the lazy component would suspend once anyway,
 * show the fallback, and React then holds the editor back for its fallback throttle (300 ms).
 */
export function NodeViewScreen({ mode }: { mode: EditorMode }) {
  // Chosen once per screen, so the editor is never swapped (and remounted) under its user.
  const [NodeView] = useState<NodeViewComponent>(() => loadedNodeView ?? LazyNodeView);
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
