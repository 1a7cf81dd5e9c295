import { describe, expect, it } from 'vitest';
import { buildSurveyAnswers, isQuestionVisible, shouldShowSurvey, visibleQuestions, type SurveyValues } from './personalization';

const keys = (values: SurveyValues) => visibleQuestions(values).map((question) => question.key);

describe('personalization survey', () => {
  it('starts with the general questions', () => {
    expect(keys({})).toEqual(['codingSkill', 'companyType', 'customerType', 'automationGoal', 'companySize']);
  });

  it('hides the customer type for other, personal, e-commerce and MSP companies', () => {
    for (const companyType of ['other', 'personal', 'ecommerce', 'msp']) {
      expect(isQuestionVisible('customerType', { companyType })).toBe(false);
    }
    expect(isQuestionVisible('customerType', { companyType: 'saas' })).toBe(true);
  });

  it('asks MSPs about their focus, with a text box for other', () => {
    expect(keys({ companyType: 'msp' })).toContain('mspFocus');
    expect(keys({ companyType: 'msp' })).not.toContain('mspFocusOther');
    expect(keys({ companyType: 'msp', mspFocus: 'other' })).toContain('mspFocusOther');
    expect(keys({ companyType: 'saas', mspFocus: 'other' })).not.toContain('mspFocus');
  });

  it('asks for industries only for other companies', () => {
    expect(keys({ companyType: 'other' })).toContain('companyIndustryExtended');
    expect(keys({ companyType: 'other', companyIndustryExtended: ['education'] })).not.toContain('otherCompanyIndustryExtended');
    expect(keys({ companyType: 'other', companyIndustryExtended: ['education', 'other'] })).toContain('otherCompanyIndustryExtended');
    expect(keys({ companyType: 'saas' })).not.toContain('companyIndustryExtended');
  });

  it('skips goal and size when not used for work', () => {
    expect(keys({ companyType: 'personal', automationGoal: 'other' })).toEqual(['codingSkill', 'companyType']);
    expect(keys({ companyType: 'saas', automationGoal: 'other' })).toContain('otherAutomationGoal');
  });

  it('sends the visible, non-empty answers with the version', () => {
    expect(
      buildSurveyAnswers({
        codingSkill: '3',
        companyType: 'personal',
        automationGoal: 'hr',
        companySize: '<20',
        customerType: 'small',
      }),
    ).toEqual({ version: 'v2', codingSkill: '3', companyType: 'personal' });
    expect(
      buildSurveyAnswers({ companyType: 'other', companyIndustryExtended: ['other'], otherCompanyIndustryExtended: '  Zoo ', automationGoal: '' }),
    ).toEqual({ version: 'v2', companyType: 'other', companyIndustryExtended: ['other'], otherCompanyIndustryExtended: 'Zoo' });
  });

  it('shows only when enabled, signed in and not answered', () => {
    const user = { id: '1', personalizationAnswers: null };
    expect(shouldShowSurvey(true, user)).toBe(true);
    expect(shouldShowSurvey(false, user)).toBe(false);
    expect(shouldShowSurvey(true, null)).toBe(false);
    expect(shouldShowSurvey(true, { ...user, personalizationAnswers: { version: 'v2' } })).toBe(false);
  });
});
