import { Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentAppPaths } from '@/core/basePath';
import type { TemplateWorkflowData } from '@/core/templates/types';
import classes from './templates.module.css';

/** The host's side of the demo frame protocol: the commands the framed editor posts. */
function readFrameMessage(data: unknown): string | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const command = typeof value === 'object' && value !== null ? (value as { command?: unknown }).command : undefined;
  return typeof command === 'string' ? command : null;
}

/**
 * The workflow preview: the demo view (/workflows/demo) in a frame. When it posts n8nReady the
 * workflow goes in with openWorkflow; openNDV and closeNDV make the frame fill the window while a
 * node is open, error shows that the preview failed.
 */
export function TemplatePreview({ workflow }: { workflow: TemplateWorkflowData | undefined }) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const [failed, setFailed] = useState(false);
  const [ndvOpen, setNdvOpen] = useState(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return;
      switch (readFrameMessage(event.data)) {
        case 'n8nReady':
          setReady(true);
          break;
        case 'openNDV':
          setNdvOpen(true);
          break;
        case 'closeNDV':
          setNdvOpen(false);
          break;
        case 'error':
          setFailed(true);
          break;
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (!ready || !workflow) return;
    frame.current?.contentWindow?.postMessage(JSON.stringify({ command: 'openWorkflow', workflow }), window.location.origin);
  }, [ready, workflow]);
  const state = failed ? 'error' : ready && workflow ? 'ready' : 'loading';

  return (
    <div className={`${classes.preview} ${ndvOpen ? classes.previewFull : ''}`} data-test-id="template-preview" data-state={state} data-ndv-open={ndvOpen || undefined}>
      <iframe ref={frame} src={`${currentAppPaths().basePath}workflows/demo`} title={t('templates.preview')} className={classes.previewFrame} data-test-id="template-preview-frame" />
      {state === 'loading' ? (
        <div className={classes.previewCover}>
          <Loader />
        </div>
      ) : null}
      {state === 'error' ? (
        <div className={classes.previewCover}>
          <Text c="dimmed">{t('templates.previewError')}</Text>
        </div>
      ) : null}
    </div>
  );
}
