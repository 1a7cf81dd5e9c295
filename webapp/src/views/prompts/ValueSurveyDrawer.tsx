import { Button, CloseButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { submitValueSurvey } from '@/api/prompts';
import { canSendSurveyEmail, initialSurvey, SURVEY_RESET_MS, SURVEY_SCORES, SURVEY_TOAST_MS, surveyReducer, surveyTitle } from '@/core/prompts/prompts';
import { modalSize } from '@/core/modals/modalStack';
import { closeModal, StackedDrawer, type HostedModalProps } from '@/components/modalHost';
import { showErrorToast } from '@/components/errorToast';
import { showToast } from '@/components/toast';
import { usePromptsCaller } from './usePromptsCaller';
import classes from './prompts.module.css';

/**
 * The value survey (spec 002 §2–§4): a bottom drawer without backdrop, kept alive. A score (0–10)
 * is sent at once and leads to the optional e-mail step, whose title follows the score; sending
 * the e-mail thanks the user for 15 s and closes; the form resets 1 s later.
 */
export function ValueSurveyDrawer({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const caller = usePromptsCaller();
  const [state, dispatch] = useReducer(surveyReducer, initialSurvey);
  const resetTimer = useRef<number | undefined>(undefined);
  const size = modalSize('valueSurvey');

  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const resetSoon = () => {
    window.clearTimeout(resetTimer.current);
    resetTimer.current = window.setTimeout(() => dispatch({ type: 'reset' }), SURVEY_RESET_MS);
  };

  const close = () => {
    closeModal('valueSurvey', state.step === 'email' ? 'close' : 'cancel');
    resetSoon();
  };

  const pickScore = async (score: number) => {
    if (!caller || state.step !== 'score' || state.submitting) return;
    dispatch({ type: 'score', score });
    try {
      await submitValueSurvey(caller, { value: score });
      dispatch({ type: 'scoreSent' });
    } catch (error) {
      showErrorToast(t('prompts.submitError'), error);
      closeModal('valueSurvey', 'close');
      resetSoon();
    }
  };

  const sendEmail = async () => {
    if (!caller || state.step !== 'email' || !canSendSurveyEmail(state)) return;
    dispatch({ type: 'emailSending' });
    try {
      await submitValueSurvey(caller, { value: state.score, email: state.email.trim() });
      showToast({ type: 'success', title: t('valueSurvey.thanks.title'), message: t('valueSurvey.thanks.message'), autoClose: SURVEY_TOAST_MS });
      closeModal('valueSurvey', 'confirmed');
      resetSoon();
    } catch (error) {
      dispatch({ type: 'failed' });
      showErrorToast(t('prompts.submitError'), error);
    }
  };

  return (
    <StackedDrawer
      opened={opened}
      onClose={close}
      position="bottom"
      size={size.kind === 'drawer' ? size.size : undefined}
      withOverlay={false}
      withCloseButton={false}
      lockScroll={false}
      trapFocus={false}
      classNames={{ content: classes.surveyContent, body: classes.surveyBody }}
      attributes={{ content: { 'data-test-id': 'value-survey' } }}
    >
      <CloseButton className={classes.surveyClose} onClick={close} aria-label={t('valueSurvey.close')} data-test-id="value-survey-close" />
      <Stack gap={10} align="center" justify="center" h="100%">
        <Text fw={600} ta="center" data-test-id="value-survey-title">
          {t(`valueSurvey.title.${surveyTitle(state)}`)}
        </Text>
        {state.step === 'score' ? (
          <Group gap={6} wrap="nowrap" align="center">
            <Text size="xs" c="dimmed" className={classes.scale}>
              {t('valueSurvey.notLikely')}
            </Text>
            {SURVEY_SCORES.map((score) => (
              <Button key={score} variant="default" size="compact-md" className={classes.score} disabled={state.submitting} onClick={() => void pickScore(score)} data-test-id={`value-survey-score-${score}`}>
                {score}
              </Button>
            ))}
            <Text size="xs" c="dimmed" className={classes.scale}>
              {t('valueSurvey.veryLikely')}
            </Text>
          </Group>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void sendEmail();
            }}
          >
            <Group gap="xs" wrap="nowrap">
              <TextInput
                type="email"
                w={320}
                placeholder={t('valueSurvey.emailPlaceholder')}
                aria-label={t('valueSurvey.emailPlaceholder')}
                value={state.email}
                disabled={state.submitting}
                onChange={(event) => dispatch({ type: 'email', email: event.currentTarget.value })}
                data-test-id="value-survey-email"
              />
              <Button type="submit" disabled={!canSendSurveyEmail(state)} data-test-id="value-survey-send">
                {t('valueSurvey.send')}
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </StackedDrawer>
  );
}
