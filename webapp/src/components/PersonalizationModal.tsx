import { Button, Group, MultiSelect, Select, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUpdate, submitSurvey } from '@/api/users';
import { buildSurveyAnswers, visibleQuestions, type SurveyQuestion, type SurveyValues } from '@/core/personalization';
import type { User } from '@/core/user';
import { dialogSizeProps } from '@/components/modalHost/modalSize';
import { closeModal, StackedModal, type HostedModalProps, type PersonalizationProps } from '@/components/modalHost';
import { useSubmit } from './forms/useSubmit';

function QuestionInput({ question, values, onChange }: { question: SurveyQuestion; values: SurveyValues; onChange: (value: string | string[]) => void }) {
  const { t } = useTranslation();
  const value = values[question.key];
  const options = question.options.map((option) => ({ value: option, label: t(`personalization.${question.key}.${option}`) }));
  const common = { name: question.key, 'data-test-id': `personalization-${question.key}` };
  if (question.kind === 'select') {
    return (
      <Select
        {...common}
        label={t(`personalization.${question.key}.label`)}
        placeholder={t('personalization.select')}
        data={options}
        value={typeof value === 'string' ? value : null}
        onChange={(next) => onChange(next ?? '')}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (question.kind === 'multiSelect') {
    return (
      <MultiSelect
        {...common}
        label={t(`personalization.${question.key}.label`)}
        placeholder={t('personalization.select')}
        data={options}
        value={Array.isArray(value) ? [...value] : []}
        onChange={onChange}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  return <TextInput {...common} placeholder={t(`personalization.${question.key}.placeholder`)} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.currentTarget.value)} />;
}

type Phase = 'form' | 'thanks';

/**
 * The personalization survey (spec 002 §2–§5), a named modal of the host: questions that follow
 * the answers so far, then a thank-you screen. The frame opens it when the survey is enabled and
 * the user has not answered yet; it cannot be dismissed before it is answered.
 */
export function PersonalizationModal({ opened, user }: HostedModalProps & PersonalizationProps) {
  const { t } = useTranslation();
  const session = useSessionUpdate();
  const [phase, setPhase] = useState<Phase>('form');
  const [values, setValues] = useState<SurveyValues>({});
  const close = () => closeModal('personalization', 'confirmed');

  const send = useSubmit(
    async (answering: User) => {
      const answers = buildSurveyAnswers(values);
      await submitSurvey(answers);
      setPhase('thanks');
      await session.setUser({ ...answering, personalizationAnswers: answers });
    },
    { onError: t('personalization.submitError'), idleAfterSuccess: true },
  );
  const onContinue = () => void send.submit(user);

  return (
    <StackedModal
      opened={opened}
      onClose={close}
      {...dialogSizeProps('personalization')}
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={
        <Stack gap={2}>
          <Text fw={700} fz="lg">
            {phase === 'thanks' ? t('personalization.thanks') : t('personalization.title')}
          </Text>
          {phase !== 'thanks' ? (
            <Text size="sm" c="dimmed">
              {t('personalization.subtitle')}
            </Text>
          ) : null}
        </Stack>
      }
      attributes={{ content: { 'data-test-id': 'personalization-form' } as Record<string, string> }}
    >
      {phase === 'thanks' ? (
        <Stack gap="lg">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" radius="xl" size="lg">
              <IconSparkles size={18} />
            </ThemeIcon>
            <Text size="sm">{t('personalization.lookOut')}</Text>
          </Group>
          <Group justify="flex-end">
            <Button onClick={close} data-test-id="personalization-get-started">
              {t('personalization.getStarted')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onContinue();
          }}
        >
          <Stack gap="md">
            {visibleQuestions(values).map((question) => (
              <QuestionInput key={question.key} question={question} values={values} onChange={(value) => setValues((current) => ({ ...current, [question.key]: value }))} />
            ))}
            <Group justify="flex-end" mt="xs">
              <Button type="submit" loading={send.busy} data-test-id="personalization-continue">
                {t('personalization.continue')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </StackedModal>
  );
}
