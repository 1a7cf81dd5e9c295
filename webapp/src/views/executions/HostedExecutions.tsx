import { lazy, Suspense } from 'react';
import { closeModal } from '@/components/modalHost';

/** The executions dialog is its own chunk, fetched when first opened. */
const ExecutionsDialog = lazy(() => import('./ExecutionsDialog').then((module) => ({ default: module.ExecutionsDialog })));

/** The executions dialog as the modal host draws it. */
export function HostedExecutions() {
  return (
    <Suspense fallback={null}>
      <ExecutionsDialog onClose={() => closeModal('executions', 'close')} />
    </Suspense>
  );
}
