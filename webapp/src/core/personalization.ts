import type { User } from './user';

/**
 * The personalization survey, version v2 (spec 002 §3–§5 and §9): the questions, their answer
 * values, which questions show for the answers so far, and the payload sent to POST /me/survey.
 */
export const SURVEY_VERSION = 'v2';

export type SurveyQuestionKey =
  | 'codingSkill'
  | 'companyType'
  | 'customerType'
  | 'mspFocus'
  | 'mspFocusOther'
  | 'companyIndustryExtended'
  | 'otherCompanyIndustryExtended'
  | 'automationGoal'
  | 'otherAutomationGoal'
  | 'companySize';

export type SurveyQuestionKind = 'select' | 'multiSelect' | 'text';

export interface SurveyQuestion {
  key: SurveyQuestionKey;
  kind: SurveyQuestionKind;
  /** Answer values in display order; their labels are `personalization.<key>.<value>`. */
  options: readonly string[];
}

export const OTHER = 'other';
export const PERSONAL_COMPANY_TYPE = 'personal';
export const ECOMMERCE_COMPANY_TYPE = 'ecommerce';
export const MSP_COMPANY_TYPE = 'msp';

export const SURVEY_QUESTIONS: readonly SurveyQuestion[] = [
  { key: 'codingSkill', kind: 'select', options: ['0', '1', '2', '3', '4', '5'] },
  {
    key: 'companyType',
    kind: 'select',
    options: ['saas', 'ecommerce', 'msp', 'digital-agency', 'automation-agency', 'systems-integrator', 'other', 'personal'],
  },
  { key: 'customerType', kind: 'select', options: ['individual', 'small', 'medium', 'large'] },
  { key: 'mspFocus', kind: 'select', options: ['cloud-infra', 'it-support', 'networking-communication', 'security', 'other'] },
  { key: 'mspFocusOther', kind: 'text', options: [] },
  {
    key: 'companyIndustryExtended',
    kind: 'multiSelect',
    options: [
      'education',
      'finance-insurance-industry',
      'government',
      'healthcare',
      'it-industry',
      'legal-industry',
      'marketing-industry',
      'media-industry',
      'manufacturing-industry',
      'physical-retail-or-services',
      'real-estate-or-construction',
      'security-industry',
      'telecoms',
      'other',
    ],
  },
  { key: 'otherCompanyIndustryExtended', kind: 'text', options: [] },
  {
    key: 'automationGoal',
    kind: 'select',
    options: [
      'customer-integrations',
      'customer-support',
      'finance-accounting',
      'hr',
      'operations',
      'product',
      'sales-marketing',
      'security',
      'other',
      'not-sure-yet',
    ],
  },
  { key: 'otherAutomationGoal', kind: 'text', options: [] },
  { key: 'companySize', kind: 'select', options: ['<20', '20-99', '100-499', '500-999', '1000+', 'personalUser'] },
];

/** Answers so far: a string for selects and texts, a list for multi-selects, absent if unanswered. */
export type SurveyValues = Partial<Record<SurveyQuestionKey, string | readonly string[]>>;

function single(values: SurveyValues, key: SurveyQuestionKey): string | undefined {
  const value = values[key];
  return typeof value === 'string' ? value : undefined;
}

function includesOther(values: SurveyValues, key: SurveyQuestionKey): boolean {
  const value = values[key];
  return Array.isArray(value) && value.includes(OTHER);
}

const CUSTOMER_TYPE_HIDDEN_FOR: ReadonlySet<string> = new Set([OTHER, PERSONAL_COMPANY_TYPE, ECOMMERCE_COMPANY_TYPE, MSP_COMPANY_TYPE]);

/** Whether a question shows, given the answers so far. */
export function isQuestionVisible(key: SurveyQuestionKey, values: SurveyValues): boolean {
  const companyType = single(values, 'companyType');
  switch (key) {
    case 'customerType':
      return companyType === undefined || !CUSTOMER_TYPE_HIDDEN_FOR.has(companyType);
    case 'mspFocus':
      return companyType === MSP_COMPANY_TYPE;
    case 'mspFocusOther':
      return companyType === MSP_COMPANY_TYPE && single(values, 'mspFocus') === OTHER;
    case 'companyIndustryExtended':
      return companyType === OTHER;
    case 'otherCompanyIndustryExtended':
      return companyType === OTHER && includesOther(values, 'companyIndustryExtended');
    case 'automationGoal':
    case 'companySize':
      return companyType !== PERSONAL_COMPANY_TYPE;
    case 'otherAutomationGoal':
      return companyType !== PERSONAL_COMPANY_TYPE && single(values, 'automationGoal') === OTHER;
    default:
      return true;
  }
}

export function visibleQuestions(values: SurveyValues): SurveyQuestion[] {
  return SURVEY_QUESTIONS.filter((question) => isQuestionVisible(question.key, values));
}

export type SurveyAnswers = Partial<Record<SurveyQuestionKey, string | string[]>> & { version: typeof SURVEY_VERSION };

/** The body of POST /me/survey: the visible, non-empty answers plus the survey version. */
export function buildSurveyAnswers(values: SurveyValues): SurveyAnswers {
  const answers: SurveyAnswers = { version: SURVEY_VERSION };
  for (const question of visibleQuestions(values)) {
    const value = values[question.key];
    if (value === undefined) continue;
    if (typeof value === 'string') {
      if (value.trim() !== '') answers[question.key] = question.kind === 'text' ? value.trim() : value;
    } else if (value.length > 0) {
      answers[question.key] = [...value];
    }
  }
  return answers;
}

/** The survey shows only when it is enabled, someone is signed in and has not answered yet. */
export function shouldShowSurvey(enabled: boolean, user: User | null): boolean {
  if (!enabled || !user) return false;
  const answers = user.personalizationAnswers;
  return answers === null || answers === undefined;
}
