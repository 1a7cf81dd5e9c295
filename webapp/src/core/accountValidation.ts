/**
 * Validation rules of the account screens (spec 000 §5, spec 002 §5). Each check returns null or
 * a message key with its parameters; the views translate it.
 */

/** First and last names: required, at most this many characters. */
export const NAME_MAX_LENGTH = 32;
/** Default password rules: this many characters or more, a number and a capital letter. */
export const PASSWORD_MIN_LENGTH = 8;
/** The server refuses longer passwords. */
export const PASSWORD_MAX_LENGTH = 64;
/** What must be typed to delete a user together with their data. */
export const DELETE_CONFIRMATION_TEXT = 'delete all data';

/** The address pattern the editor has always used for e-mail fields. */
export const EMAIL_PATTERN =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

export type ValidationKey =
  | 'validation.required'
  | 'validation.maxLength'
  | 'validation.email'
  | 'validation.passwordMinLength'
  | 'validation.passwordMaxLength'
  | 'validation.passwordNumber'
  | 'validation.passwordCapital'
  | 'validation.passwordsMustMatch'
  | 'validation.invalidInviteEmail'
  | 'validation.noUsersToInvite'
  | 'validation.transferUserRequired'
  | 'validation.transferToSelf'
  | 'validation.deleteConfirmation';

export interface ValidationError {
  key: ValidationKey;
  params?: Record<string, string | number>;
}

export type FieldError = ValidationError | null;

function isBlank(value: string): boolean {
  return value.trim() === '';
}

export function validateRequired(value: string): FieldError {
  return isBlank(value) ? { key: 'validation.required' } : null;
}

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** firstName and lastName. */
export function validateName(value: string): FieldError {
  if (isBlank(value)) return { key: 'validation.required' };
  if (value.trim().length > NAME_MAX_LENGTH) return { key: 'validation.maxLength', params: { max: NAME_MAX_LENGTH } };
  return null;
}

export function validateEmail(value: string): FieldError {
  if (isBlank(value)) return { key: 'validation.required' };
  return isValidEmail(value) ? null : { key: 'validation.email' };
}

/** A new password on setup, sign-up and password change. */
export function validatePassword(value: string): FieldError {
  if (value === '') return { key: 'validation.required' };
  if (value.length < PASSWORD_MIN_LENGTH) return { key: 'validation.passwordMinLength', params: { min: PASSWORD_MIN_LENGTH } };
  if (value.length > PASSWORD_MAX_LENGTH) return { key: 'validation.passwordMaxLength', params: { max: PASSWORD_MAX_LENGTH } };
  if (!/[0-9]/.test(value)) return { key: 'validation.passwordNumber' };
  if (!/[A-Z]/.test(value)) return { key: 'validation.passwordCapital' };
  return null;
}

/** The second password entry. */
export function validatePasswordRepeat(password: string, repeat: string): FieldError {
  if (repeat === '') return { key: 'validation.required' };
  return repeat === password ? null : { key: 'validation.passwordsMustMatch' };
}

/** Rules per field, evaluated against all values so a rule can compare fields. */
export type FormRules<F extends string> = Partial<Record<F, (value: string, values: Readonly<Record<F, string>>) => FieldError>>;

export type FormErrors<F extends string> = Partial<Record<F, ValidationError>>;

export function validateForm<F extends string>(values: Readonly<Record<F, string>>, rules: FormRules<F>): FormErrors<F> {
  const errors: FormErrors<F> = {};
  for (const field of Object.keys(rules) as F[]) {
    const rule = rules[field];
    const error = rule ? rule(values[field], values) : null;
    if (error) errors[field] = error;
  }
  return errors;
}

export function hasErrors<F extends string>(errors: FormErrors<F>): boolean {
  return Object.keys(errors).length > 0;
}

/** Whether any field differs from its initial value. */
export function isChanged<F extends string>(values: Readonly<Record<F, string>>, initial: Readonly<Record<F, string>>): boolean {
  return (Object.keys(initial) as F[]).some((field) => values[field] !== initial[field]);
}

export type SignInField = 'email' | 'password';
/** Sign-in only needs both fields; the address format is the server's business. */
export const SIGN_IN_RULES: FormRules<SignInField> = { email: validateRequired, password: validateRequired };

export type SetupField = 'email' | 'firstName' | 'lastName' | 'password';
export const SETUP_RULES: FormRules<SetupField> = {
  email: validateEmail,
  firstName: validateName,
  lastName: validateName,
  password: validatePassword,
};

export type SignUpField = 'firstName' | 'lastName' | 'password';
export const SIGN_UP_RULES: FormRules<SignUpField> = { firstName: validateName, lastName: validateName, password: validatePassword };

export type ProfileField = 'firstName' | 'lastName' | 'email';
export const PROFILE_RULES: FormRules<ProfileField> = { firstName: validateName, lastName: validateName, email: validateEmail };

export type ForgotPasswordField = 'email';
export const FORGOT_PASSWORD_RULES: FormRules<ForgotPasswordField> = { email: validateEmail };

export type ResetPasswordField = 'password' | 'password2';
export const RESET_PASSWORD_RULES: FormRules<ResetPasswordField> = {
  password: validatePassword,
  password2: (value, values) => validatePasswordRepeat(values.password, value),
};

export type ChangePasswordField = 'currentPassword' | 'password' | 'password2';
export const CHANGE_PASSWORD_RULES: FormRules<ChangePasswordField> = {
  currentPassword: validateRequired,
  password: validatePassword,
  password2: (value, values) => validatePasswordRepeat(values.password, value),
};

/** One entry of the invite field: what was typed and the address taken from it. */
export interface InviteEntry {
  raw: string;
  email: string;
}

/**
 * Splits the invite field on commas. An entry in `Name <address>` form contributes the address in
 * the angle brackets; empty entries are dropped.
 */
export function parseInviteEmails(input: string): InviteEntry[] {
  return input
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((raw) => {
      const bracketed = /<([^<>]*)>\s*$/.exec(raw);
      return { raw, email: (bracketed?.[1] ?? raw).trim() };
    });
}

/** The invite field: at least one address, each of them valid (the first bad one is named). */
export function validateInviteEmails(input: string): FieldError {
  const entries = parseInviteEmails(input);
  if (entries.length === 0) return { key: 'validation.required' };
  const invalid = entries.find((entry) => !isValidEmail(entry.email));
  return invalid ? { key: 'validation.invalidInviteEmail', params: { email: invalid.email === '' ? invalid.raw : invalid.email } } : null;
}

/** The distinct addresses to invite, or the spec's 'no users to invite' error for none. */
export function inviteeEmails(input: string): string[] {
  const emails: string[] = [];
  for (const { email } of parseInviteEmails(input)) {
    const normalized = email.toLowerCase();
    if (isValidEmail(email) && !emails.some((known) => known.toLowerCase() === normalized)) emails.push(email);
  }
  if (emails.length === 0) throw new Error('no users to invite');
  return emails;
}

export type DeleteUserMode = 'transfer' | 'delete';

export interface DeleteUserInput {
  /** The user being deleted. */
  userId: string;
  /** A pending user has no data: confirming is enough. */
  isPending: boolean;
  mode: DeleteUserMode | null;
  transferId: string | null;
  confirmation: string;
}

/** Whether the delete-user dialog may delete, and what is missing if not. */
export function validateDeleteUser(input: DeleteUserInput): FieldError {
  if (input.isPending) return null;
  if (input.mode === 'transfer') {
    if (!input.transferId) return { key: 'validation.transferUserRequired' };
    if (input.transferId === input.userId) return { key: 'validation.transferToSelf' };
    return null;
  }
  if (input.mode === 'delete') {
    return input.confirmation === DELETE_CONFIRMATION_TEXT ? null : { key: 'validation.deleteConfirmation', params: { text: DELETE_CONFIRMATION_TEXT } };
  }
  return { key: 'validation.required' };
}
