function randomId(): string {
  const bytes = new Uint8Array(10);
  // getRandomValues also works on plain-http hosts, where crypto.randomUUID is unavailable.
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * This page load's editor session id. Sent as the `sessionid` header on REST calls and as the
 * push stream's `sessionId`, so the server routes push messages of executions started here back
 * to this tab.
 */
export const sessionId: string = randomId();
