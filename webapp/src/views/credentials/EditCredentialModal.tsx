import { ActionIcon, Box, Button, Center, Group, Loader, NavLink, ScrollArea, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconPencil, IconPlug, IconSettings, IconTrash, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmModal } from '@/components/confirm';
import { closeModal, StackedModal, type EditCredentialProps } from '@/components/modalHost';
import { showToast } from '@/components/toast';
import { CREDENTIAL_NAME_MAX_LENGTH } from '@/core/credentials';
import { confirmDelete } from './confirmDelete';
import { CredentialConnection } from './CredentialConnection';
import { CredentialDetails } from './CredentialDetails';
import { CredentialIcon } from './CredentialIcon';
import { useCredentialEditor, type CredentialEditor } from './useCredentialEditor';
import classes from './credentials.module.css';

type Tab = 'connection' | 'details';

function NameEditor({ editor }: { editor: CredentialEditor }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const finish = () => {
    editor.setName(draft);
    setEditing(false);
  };
  if (editing) {
    return (
      <TextInput
        size="sm"
        value={draft}
        maxLength={CREDENTIAL_NAME_MAX_LENGTH}
        autoFocus
        onChange={(event) => setDraft(event.currentTarget.value)}
        onBlur={finish}
        onKeyDown={(event) => {
          if (event.key === 'Enter') finish();
          if (event.key === 'Escape') {
            event.stopPropagation();
            setEditing(false);
          }
        }}
        data-test-id="credential-name-input"
        w={360}
      />
    );
  }
  return (
    <UnstyledButton
      className={classes.name}
      onClick={() => {
        setDraft(editor.name);
        setEditing(true);
      }}
      data-test-id="credential-name"
    >
      <Text fw={600} size="lg" className={classes.nameText}>
        {editor.name}
      </Text>
      <IconPencil size={14} className={classes.nameIcon} />
    </UnstyledButton>
  );
}

/** The credential modal (spec 002 §2, §4): Connection and Details tabs in a sidebar, name in the header. */
export function EditCredentialModal(props: EditCredentialProps) {
  const { t } = useTranslation();
  const close = useCallback(() => closeModal('editCredential', 'close'), []);
  const editor = useCredentialEditor(props, close);
  const [tab, setTab] = useState<Tab>('connection');
  const viewport = useRef<HTMLDivElement>(null);
  // A new banner sits above the fields: bring it into view.
  useEffect(() => {
    if (viewport.current) viewport.current.scrollTop = 0;
  }, [editor.banner, editor.showValidation]);
  const typeName = editor.type?.displayName ?? '';

  const requestClose = async () => {
    let keepEditing = false;
    if (editor.dirty) {
      keepEditing = !(await confirmModal({
        title: t('credentialEdit.closeUnsaved.title'),
        message: t('credentialEdit.closeUnsaved.message', { type: typeName }),
        confirm: t('credentialEdit.close'),
        cancel: t('credentialEdit.keepEditing'),
      }));
    } else if (editor.oauth && !editor.connected) {
      keepEditing = !(await confirmModal({
        title: t('credentialEdit.closeNotConnected.title'),
        message: t('credentialEdit.closeNotConnected.message'),
        confirm: t('credentialEdit.close'),
        cancel: t('credentialEdit.keepEditing'),
      }));
    }
    if (!keepEditing) {
      closeModal('editCredential', 'cancel');
      return;
    }
    setTab('connection');
    if (editor.missing.length > 0) editor.setShowValidation(true);
  };

  const remove = async () => {
    if (!(await confirmDelete(editor.name))) return;
    if (await editor.remove()) {
      showToast({ type: 'success', message: t('credentialEdit.deleted', { name: editor.name }) });
      closeModal('editCredential', 'confirmed');
    }
  };

  const saveLabel = editor.busy === 'saving' ? t('credentialEdit.saving') : editor.stored && !editor.dirty ? t('credentialEdit.saved') : t('credentialEdit.save');

  return (
    <StackedModal
      opened
      onClose={() => void requestClose()}
      withCloseButton={false}
      size="70%"
      centered
      padding={0}
      closeOnClickOutside={false}
      classNames={{ content: classes.editContent, body: classes.editBody }}
      aria-label={t('credentialEdit.title')}
      attributes={{ content: { 'data-test-id': 'credential-edit-dialog' } as Record<string, string> }}
    >
      <header className={classes.editHeader}>
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
          <Box className={classes.typeIcon}>
            <CredentialIcon type={editor.type} size={28} />
          </Box>
          <Box miw={0} style={{ flex: 1 }}>
            <NameEditor editor={editor} />
            <Text size="xs" c="dimmed" truncate>
              {typeName}
            </Text>
            {editor.nameWarning ? (
              <Text size="xs" c="orange" data-test-id="credential-name-warning">
                {t('credentialEdit.nameEmpty')}
              </Text>
            ) : null}
          </Box>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {editor.stored ? (
            <Tooltip label={t('credentialEdit.delete')} withinPortal zIndex={1000}>
              <ActionIcon variant="default" size="lg" onClick={() => void remove()} loading={editor.busy === 'deleting'} aria-label={t('credentialEdit.delete')} data-test-id="credential-delete-button">
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Button onClick={() => void editor.save()} loading={editor.busy === 'saving'} disabled={editor.loading || editor.busy !== null || (editor.stored !== null && !editor.dirty)} data-test-id="credential-save-button">
            {saveLabel}
          </Button>
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => void requestClose()} aria-label={t('credentialEdit.close')} data-test-id="credential-close-button">
            <IconX size={20} />
          </ActionIcon>
        </Group>
      </header>
      <div className={classes.editMain}>
        <nav className={classes.editSidebar}>
          <NavLink label={t('credentialEdit.connection')} leftSection={<IconPlug size={16} />} active={tab === 'connection'} onClick={() => setTab('connection')} data-test-id="credential-tab-connection" />
          <NavLink label={t('credentialEdit.details')} leftSection={<IconSettings size={16} />} active={tab === 'details'} onClick={() => setTab('details')} data-test-id="credential-tab-details" />
        </nav>
        <ScrollArea className={classes.editPanel} type="auto" viewportRef={viewport}>
          <Box p="lg" maw={760}>
            {editor.loading ? (
              <Center h={200}>
                <Loader size="sm" />
              </Center>
            ) : tab === 'connection' ? (
              <CredentialConnection editor={editor} />
            ) : (
              <CredentialDetails editor={editor} />
            )}
          </Box>
        </ScrollArea>
      </div>
    </StackedModal>
  );
}
