import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isWorkflowUrl } from '@/core/workflow/clipboard';

/** Asks for a workflow file URL; only http(s) addresses ending in .json pass (spec 001 §5). */
export function ImportFromUrlModal({ onImport, onClose }: { onImport: (url: string) => Promise<boolean>; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!isWorkflowUrl(url)) {
      setError(t('importUrl.invalid'));
      return;
    }
    setBusy(true);
    const ok = await onImport(url.trim());
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal opened onClose={onClose} title={t('importUrl.title')} centered attributes={{ content: { 'data-test-id': 'import-url-modal' } }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput name="url" label={t('importUrl.label')} placeholder="https://…/workflow.json" value={url} error={error} autoFocus onChange={(event) => { setUrl(event.currentTarget.value); setError(null); }} data-test-id="import-url-input" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('importUrl.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-test-id="import-url-button">
              {t('importUrl.import')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
