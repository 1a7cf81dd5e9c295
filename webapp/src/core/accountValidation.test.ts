import { describe, expect, it } from 'vitest';
import {
  CHANGE_PASSWORD_RULES,
  PROFILE_RULES,
  SETUP_RULES,
  SIGN_IN_RULES,
  hasErrors,
  inviteeEmails,
  isChanged,
  parseInviteEmails,
  validateDeleteUser,
  validateEmail,
  validateForm,
  validateInviteEmails,
  validateName,
  validatePassword,
  validatePasswordRepeat,
} from './accountValidation';

describe('names', () => {
  it('are required and at most 32 characters', () => {
    expect(validateName('')?.key).toBe('validation.required');
    expect(validateName('   ')?.key).toBe('validation.required');
    expect(validateName('a'.repeat(32))).toBeNull();
    expect(validateName('a'.repeat(33))).toEqual({ key: 'validation.maxLength', params: { max: 32 } });
  });
});

describe('e-mail', () => {
  it('is required and must look like an address', () => {
    expect(validateEmail('')?.key).toBe('validation.required');
    expect(validateEmail('nobody')?.key).toBe('validation.email');
    expect(validateEmail('a@b')?.key).toBe('validation.email');
    expect(validateEmail('ann@example.com')).toBeNull();
    expect(validateEmail(' ann@example.com ')).toBeNull();
  });
});

describe('passwords', () => {
  it('need 8 characters, a number and a capital letter', () => {
    expect(validatePassword('')?.key).toBe('validation.required');
    expect(validatePassword('Short1')).toEqual({ key: 'validation.passwordMinLength', params: { min: 8 } });
    expect(validatePassword('NoNumbersHere')?.key).toBe('validation.passwordNumber');
    expect(validatePassword('nocapital123')?.key).toBe('validation.passwordCapital');
    expect(validatePassword('Abcdefg1')).toBeNull();
    expect(validatePassword(`A1${'x'.repeat(63)}`)?.key).toBe('validation.passwordMaxLength');
  });

  it('the second entry must be given and match', () => {
    expect(validatePasswordRepeat('Abcdefg1', '')?.key).toBe('validation.required');
    expect(validatePasswordRepeat('Abcdefg1', 'Abcdefg2')?.key).toBe('validation.passwordsMustMatch');
    expect(validatePasswordRepeat('Abcdefg1', 'Abcdefg1')).toBeNull();
  });
});

describe('forms', () => {
  it('sign-in only requires both fields', () => {
    expect(validateForm({ email: 'x', password: 'y' }, SIGN_IN_RULES)).toEqual({});
    expect(Object.keys(validateForm({ email: '', password: '' }, SIGN_IN_RULES))).toEqual(['email', 'password']);
  });

  it('owner setup checks every field', () => {
    const errors = validateForm({ email: 'bad', firstName: '', lastName: 'L', password: 'weak' }, SETUP_RULES);
    expect(errors.email?.key).toBe('validation.email');
    expect(errors.firstName?.key).toBe('validation.required');
    expect(errors.lastName).toBeUndefined();
    expect(errors.password?.key).toBe('validation.passwordMinLength');
  });

  it('change password compares the two new entries', () => {
    const values = { currentPassword: 'old', password: 'Abcdefg1', password2: 'Abcdefg2' };
    expect(validateForm(values, CHANGE_PASSWORD_RULES)).toEqual({ password2: { key: 'validation.passwordsMustMatch' } });
    expect(hasErrors(validateForm({ ...values, password2: 'Abcdefg1' }, CHANGE_PASSWORD_RULES))).toBe(false);
    expect(validateForm({ ...values, currentPassword: '', password2: 'Abcdefg1' }, CHANGE_PASSWORD_RULES).currentPassword?.key).toBe(
      'validation.required',
    );
  });

  it('a profile is saveable only when changed and valid', () => {
    const initial = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };
    expect(isChanged(initial, initial)).toBe(false);
    const edited = { ...initial, lastName: 'Li' };
    expect(isChanged(edited, initial)).toBe(true);
    expect(hasErrors(validateForm(edited, PROFILE_RULES))).toBe(false);
    expect(hasErrors(validateForm({ ...edited, email: 'x' }, PROFILE_RULES))).toBe(true);
  });
});

describe('invitations', () => {
  it('splits on commas and takes the address out of "Name <address>"', () => {
    expect(parseInviteEmails(' ann@example.com, Bob Stone <bob@example.com> ,, ')).toEqual([
      { raw: 'ann@example.com', email: 'ann@example.com' },
      { raw: 'Bob Stone <bob@example.com>', email: 'bob@example.com' },
    ]);
  });

  it('names the first invalid address', () => {
    expect(validateInviteEmails('')?.key).toBe('validation.required');
    expect(validateInviteEmails('ann@example.com, nope')).toEqual({ key: 'validation.invalidInviteEmail', params: { email: 'nope' } });
    expect(validateInviteEmails('Bob <bob@>')).toEqual({ key: 'validation.invalidInviteEmail', params: { email: 'bob@' } });
    expect(validateInviteEmails('ann@example.com, Bob <bob@example.com>')).toBeNull();
  });

  it('invites each address once and refuses an empty list', () => {
    expect(inviteeEmails('ann@example.com, ANN@example.com, Bob <bob@example.com>')).toEqual(['ann@example.com', 'bob@example.com']);
    expect(() => inviteeEmails(' , ')).toThrow('no users to invite');
  });
});

describe('deleting a user', () => {
  const base = { userId: 'u1', isPending: false, mode: null, transferId: null, confirmation: '' } as const;

  it('a pending user needs only confirmation', () => {
    expect(validateDeleteUser({ ...base, isPending: true })).toBeNull();
  });

  it('transfer needs another user', () => {
    expect(validateDeleteUser({ ...base, mode: 'transfer' })?.key).toBe('validation.transferUserRequired');
    expect(validateDeleteUser({ ...base, mode: 'transfer', transferId: 'u1' })?.key).toBe('validation.transferToSelf');
    expect(validateDeleteUser({ ...base, mode: 'transfer', transferId: 'u2' })).toBeNull();
  });

  it('deleting the data needs the typed text', () => {
    expect(validateDeleteUser(base)?.key).toBe('validation.required');
    expect(validateDeleteUser({ ...base, mode: 'delete', confirmation: 'delete all' })?.key).toBe('validation.deleteConfirmation');
    expect(validateDeleteUser({ ...base, mode: 'delete', confirmation: 'delete all data' })).toBeNull();
  });
});
