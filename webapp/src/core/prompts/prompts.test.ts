import { describe, expect, it } from 'vitest';
import {
  canSendEmail,
  canSendSurveyEmail,
  initialSurvey,
  keepsPromptAnswers,
  promptToOpen,
  readPrompts,
  SURVEY_SCORES,
  surveyReducer,
  surveyTitle,
  type SurveyEvent,
  type SurveyState,
} from './prompts';

const run = (...events: SurveyEvent[]): SurveyState => events.reduce(surveyReducer, initialSurvey);

describe('prompts', () => {
  it('opens the contact prompt before the value survey', () => {
    expect(promptToOpen(readPrompts({ showContactPrompt: true, showValueSurvey: true }))).toBe('contactPrompt');
    expect(promptToOpen(readPrompts({ showValueSurvey: true }))).toBe('valueSurvey');
    expect(promptToOpen(readPrompts({}))).toBeNull();
    expect(promptToOpen(readPrompts('nonsense'))).toBeNull();
    expect(readPrompts({ title: 'Hi', message: 'There', showContactPrompt: true })).toMatchObject({ title: 'Hi', message: 'There' });
  });

  it('lists answers only for the built-in host', () => {
    expect(keepsPromptAnswers({ prompts: { enabled: true, host: '/rest/prompts-host' } })).toBe(true);
    expect(keepsPromptAnswers({ prompts: { enabled: false, host: '/rest/prompts-host' } })).toBe(false);
    expect(keepsPromptAnswers({ prompts: { enabled: true, host: 'https://prompts.example.com' } })).toBe(false);
  });

  it('enables Send only for a valid e-mail', () => {
    expect(canSendEmail('')).toBe(false);
    expect(canSendEmail('mia@')).toBe(false);
    expect(canSendEmail('mia@example')).toBe(false);
    expect(canSendEmail('mia@example.com')).toBe(true);
  });
});

describe('value survey', () => {
  it('has 11 score buttons', () => {
    expect(SURVEY_SCORES).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('asks the question, then a follow-up by score', () => {
    expect(surveyTitle(initialSurvey)).toBe('question');
    expect(surveyTitle(run({ type: 'score', score: 8 }))).toBe('followUpPositive');
    expect(surveyTitle(run({ type: 'score', score: 7 }))).toBe('followUpLukewarm');
    expect(surveyTitle(run({ type: 'score', score: 0 }))).toBe('followUpLukewarm');
  });

  it('sends the score at once, then lets the e-mail be typed and sent when valid', () => {
    let state = run({ type: 'score', score: 9 });
    expect(state).toEqual({ step: 'email', score: 9, email: '', submitting: true });
    // Typing waits for the score to be sent.
    expect(surveyReducer(state, { type: 'email', email: 'x' })).toBe(state);
    state = surveyReducer(state, { type: 'scoreSent' });
    state = surveyReducer(state, { type: 'email', email: 'mia@example' });
    expect(canSendSurveyEmail(state)).toBe(false);
    state = surveyReducer(state, { type: 'email', email: 'mia@example.com' });
    expect(canSendSurveyEmail(state)).toBe(true);
    state = surveyReducer(state, { type: 'emailSending' });
    expect(canSendSurveyEmail(state)).toBe(false);
    expect(surveyReducer(state, { type: 'reset' })).toEqual(initialSurvey);
  });

  it('ignores scores out of range or while sending, and lets a failed send be retried', () => {
    expect(run({ type: 'score', score: 11 })).toEqual(initialSurvey);
    expect(run({ type: 'score', score: -1 })).toEqual(initialSurvey);
    const sending = run({ type: 'score', score: 3 });
    expect(surveyReducer(sending, { type: 'score', score: 4 })).toBe(sending);
    const failed = run({ type: 'score', score: 3 }, { type: 'scoreSent' }, { type: 'email', email: 'mia@example.com' }, { type: 'emailSending' }, { type: 'failed' });
    expect(canSendSurveyEmail(failed)).toBe(true);
  });
});
