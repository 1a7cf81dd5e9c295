import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { cutMessage } from '@/core/toastText';
import { ToastDetails } from './ToastDetails';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  type: ToastType;
  title?: ReactNode;
  /** Text longer than 500 characters is cut. */
  message: ReactNode;
  /** Folded away under 'Details' (API errors: hint, status, the text the cut left out). */
  details?: string | null;
  /** A toast whose id is already showing is not shown twice. */
  id?: string;
  /** Milliseconds, or false to keep it until dismissed. Default 4000, errors stay. */
  autoClose?: number | false;
}

const STYLE: Record<ToastType, { color: string; icon: ReactNode }> = {
  success: { color: 'teal', icon: <IconCheck size={18} /> },
  error: { color: 'red', icon: <IconX size={18} /> },
  warning: { color: 'yellow', icon: <IconAlertTriangle size={18} /> },
  info: { color: 'blue', icon: <IconInfoCircle size={18} /> },
};

/** Shows a notification. Every toast carries data-test-id="toast", and data-toast-id its id (ARCHITECTURE.md §6). */
export function showToast({ type, title, message, details, id, autoClose }: ToastOptions): string {
  const style = STYLE[type];
  const text = typeof message === 'string' ? cutMessage(message) : message;
  const data = {
    id,
    title,
    message: details ? <ToastDetails message={text} details={details} /> : text,
    color: style.color,
    icon: style.icon,
    autoClose: autoClose ?? (type === 'error' ? false : 4000),
    withBorder: true,
    'data-test-id': 'toast',
    'data-toast-type': type,
    'data-toast-id': id,
  };
  return notifications.show(data);
}

/** Closes a toast shown with an id, if it is still showing. */
export function hideToast(id: string): void {
  notifications.hide(id);
}
