import { useEffect, useSyncExternalStore } from 'react';
import { currentAppPaths } from '@/core/basePath';
import { PushClient, type PushStatus } from '@/core/push/pushClient';
import type { PushMessage } from '@/core/push/messages';
import { sessionId } from './sessionId';

let client: PushClient | null = null;

function publishStatus(status: PushStatus): void {
  // End-to-end tests wait on this attribute before running workflows.
  document.body.dataset.pushConnected = String(status === 'open');
}

/** The page's single push client: `<rest>/push?sessionId=<this page's session id>`. */
export function getPushClient(): PushClient {
  if (!client) {
    const url = `${currentAppPaths().restBase}/push?${new URLSearchParams({ sessionId }).toString()}`;
    client = new PushClient({ url });
    client.onStatusChange(publishStatus);
    publishStatus(client.status);
  }
  return client;
}

/** Holds the push stream open while enabled and returns its live status. */
export function usePushConnection(enabled: boolean): PushStatus {
  const push = getPushClient();
  useEffect(() => {
    if (!enabled) return undefined;
    push.connect();
    return () => push.disconnect();
  }, [enabled, push]);
  return useSyncExternalStore(
    (onChange) => push.onStatusChange(onChange),
    () => push.status,
  );
}

/** Calls the listener with every push message while mounted. */
export function usePushMessages(listener: (message: PushMessage) => void): void {
  const push = getPushClient();
  useEffect(() => push.subscribe(listener), [push, listener]);
}
