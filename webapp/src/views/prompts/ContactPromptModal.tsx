import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { submitContactInfo } from '@/api/prompts';
import { canSendEmail } from '@/core/prompts/prompts';
import { closeModal, StackedModal, type ContactPromptProps, type HostedModalProps } from '@/components/modalHost';
import { dialogSizeProps } from '@/components/modalHost/modalSize';
import { showErrorToast } from '@/components/errorToast';
import { showToast } from '@/components/toast';
import { usePromptsCaller } from './usePromptsCaller';

/** The contact prompt (spec 002 §2, 460 px): the host's title and message, an e-mail field, Send once it is valid. */
export function ContactPromptModal({ opened, title, message }: ContactPromptProps & HostedModalProps) {
  const { t } = useTranslation();
  const caller = usePromptsCaller();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const valid = canSendEmail(email);

  const send = async () => {
    if (!caller || !valid || sending) return;
    setSending(true);
    try {
      await submitContactInfo(caller, email.trim());
      showToast({ type: 'success', title: t('contactPrompt.thanks.title'), message: t('contactPrompt.thanks.message') });
      closeModal('contactPrompt', 'confirmed');
    } catch (error) {
      showErrorToast(t('prompts.submitError'), error);
      setSending(false);
    }
  };

  return (
    <StackedModal
      opened={opened}
      onClose={() => closeModal('contactPrompt', 'cancel')}
      title={<Text fw={700}>{title || t('contactPrompt.title')}</Text>}
      centered
      {...dialogSizeProps('contactPrompt')}
      attributes={{ content: { 'data-test-id': 'contact-prompt-modal' } }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {message || t('contactPrompt.message')}
          </Text>
          <TextInput
            type="email"
            placeholder={t('contactPrompt.placeholder')}
            aria-label={t('contactPrompt.placeholder')}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            data-test-id="contact-prompt-email"
            autoFocus
          />
          <Text size="xs" c="dimmed">
            {t('contactPrompt.privacy')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" disabled={!valid} loading={sending} data-test-id="contact-prompt-send">
              {t('contactPrompt.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </StackedModal>
  );
}
