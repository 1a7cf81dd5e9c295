import { useCallback, useMemo, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasErrors, isChanged, validateForm, type FormRules, type ValidationError } from '@/core/accountValidation';

export interface AccountFormOptions<F extends string> {
  initialValues: Record<F, string>;
  rules: FormRules<F>;
  /** Show a field's error once it lost focus; otherwise errors appear only after a submit attempt. */
  validateOnBlur?: boolean;
}

export interface FieldProps {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
}

export interface AccountForm<F extends string> {
  values: Record<F, string>;
  isValid: boolean;
  isChanged: boolean;
  field: (name: F) => FieldProps;
  setValue: (name: F, value: string) => void;
  /** Marks every field as shown and answers whether the form may be sent. */
  attemptSubmit: () => boolean;
  reset: (values?: Record<F, string>) => void;
}

/** Form state for the account screens, validated by the rules in core/accountValidation. */
export function useAccountForm<F extends string>({ initialValues, rules, validateOnBlur = true }: AccountFormOptions<F>): AccountForm<F> {
  const { t } = useTranslation();
  const [initial, setInitial] = useState(initialValues);
  const [values, setValues] = useState(initialValues);
  const [blurred, setBlurred] = useState<ReadonlySet<F>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validateForm(values, rules), [values, rules]);

  const message = useCallback((error: ValidationError | undefined) => (error ? t(error.key, error.params) : undefined), [t]);
  const setValue = useCallback((name: F, value: string) => setValues((current) => ({ ...current, [name]: value })), []);

  const field = (name: F): FieldProps => ({
    name,
    value: values[name],
    error: submitted || (validateOnBlur && blurred.has(name)) ? message(errors[name]) : undefined,
    onChange: (event) => setValue(name, event.currentTarget.value),
    onBlur: () => {
      if (validateOnBlur && !blurred.has(name)) setBlurred((current) => new Set(current).add(name));
    },
  });

  return {
    values,
    isValid: !hasErrors(errors),
    isChanged: isChanged(values, initial),
    field,
    setValue,
    attemptSubmit: () => {
      setSubmitted(true);
      return !hasErrors(errors);
    },
    reset: (next) => {
      const base = next ?? initial;
      setInitial(base);
      setValues(base);
      setBlurred(new Set());
      setSubmitted(false);
    },
  };
}
