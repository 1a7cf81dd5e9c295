import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { EditorMode } from './EditorContext';

// The editor (canvas library included) loads with its route, not with the app shell.
const NodeView = lazy(() => import('./NodeView').then((module) => ({ default: module.NodeView })));

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
