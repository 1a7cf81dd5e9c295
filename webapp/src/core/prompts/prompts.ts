import { isValidEmail } from '@/core/accountValidation';
import type { Settings } from '@/core/settings';

/** What the prompts host says to show (spec 000 §3 "Prompts data"). */
export interface PromptsData {
  title?: string;
  message?: string;
  showContactPrompt: boolean;
  showValueSurvey: boolean;
}

/** Reads the host's answer; anything unexpected shows nothing. */
export function readPrompts(body: unknown): PromptsData {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { showContactPrompt: false, showValueSurvey: false };
  const record = body as Record<string, unknown>;
  return {
    title: typeof record.title === 'string' ? record.title : undefined,
    message: typeof record.message === 'string' ? record.message : undefined,
    showContactPrompt: record.showContactPrompt === true,
    showValueSurvey: record.showValueSurvey === true,
  };
}

/** The one prompt to open: the contact prompt before the value survey, as n8n does. */
export function promptToOpen(data: PromptsData): 'contactPrompt' | 'valueSurvey' | null {
  if (data.showContactPrompt) return 'contactPrompt';
  if (data.showValueSurvey) return 'valueSurvey';
  return null;
}

/** Send is enabled once the e-mail matches the pattern (spec 002 §5). */
export function canSendEmail(email: string): boolean {
  return isValidEmail(email);
}

/** The value survey's scores, 0 to 10 (11 buttons). */
export const SURVEY_SCORES: readonly number[] = Array.from({ length: 11 }, (_, i) => i);
/** How long the survey's thank-you toast stays (spec 002 §9). */
export const SURVEY_TOAST_MS = 15_000;
/** How long after sending the survey form resets (spec 002 §9). */
export const SURVEY_RESET_MS = 1_000;

/** The value survey: scores first, then the optional e-mail step. */
export type SurveyState =
  | { step: 'score'; submitting: boolean }
  | { step: 'email'; score: number; email: string; submitting: boolean };

export const initialSurvey: SurveyState = { step: 'score', submitting: false };

/** Which title the survey shows: the question, or the follow-up for a score above 7 or of 7 or less. */
export type SurveyTitle = 'question' | 'followUpPositive' | 'followUpLukewarm';

export function surveyTitle(state: SurveyState): SurveyTitle {
  if (state.step === 'score') return 'question';
  return state.score > 7 ? 'followUpPositive' : 'followUpLukewarm';
}

export type SurveyEvent =
  | { type: 'score'; score: number }
  | { type: 'scoreSent' }
  | { type: 'email'; email: string }
  | { type: 'emailSending' }
  | { type: 'failed' }
  | { type: 'reset' };

/**
 * The survey's transitions: a score (0–10, while nothing is being sent) is sent at once and leads
 * to the e-mail step; the e-mail is sent on its own; a failure lets the user try again; reset
 * (1 s after sending, or on closing) returns to the scores.
 */
export function surveyReducer(state: SurveyState, event: SurveyEvent): SurveyState {
  switch (event.type) {
    case 'score':
      if (state.step !== 'score' || state.submitting || !SURVEY_SCORES.includes(event.score)) return state;
      return { step: 'email', score: event.score, email: '', submitting: true };
    case 'scoreSent':
      return state.step === 'email' ? { ...state, submitting: false } : state;
    case 'email':
      return state.step === 'email' && !state.submitting ? { ...state, email: event.email } : state;
    case 'emailSending':
      return state.step === 'email' ? { ...state, submitting: true } : state;
    case 'failed':
      return state.step === 'email' ? { ...state, submitting: false } : { ...state, submitting: false };
    case 'reset':
      return initialSurvey;
  }
}

/** Whether the e-mail step's Send button is enabled. */
export function canSendSurveyEmail(state: SurveyState): boolean {
  return state.step === 'email' && !state.submitting && canSendEmail(state.email);
}

/**
 * Whether the prompts host is the api's built-in one (its host is a path on this instance), whose
 * answers the owner can list.
 */
export function keepsPromptAnswers(settings: Pick<Settings, 'prompts'>): boolean {
  return settings.prompts.enabled && settings.prompts.host.startsWith('/');
}
