import { createContext } from 'react';

/**
 * Whether the hosted modal around it is the most recent one on the host's stack. Outside the host
 * every modal counts as on top.
 */
export const HostedModalContext = createContext<{ onTop: boolean }>({ onTop: true });
