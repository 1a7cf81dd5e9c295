/// <reference types="vite/client" />

interface Window {
  /** Set by index.html; the server replaces its placeholder with the configured base path. */
  BASE_PATH?: string;
}
