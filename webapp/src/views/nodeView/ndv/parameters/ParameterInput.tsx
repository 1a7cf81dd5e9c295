import { Switch } from '@mantine/core';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { ColorParameter } from './ColorParameter';
import { CredentialsSelectParameter } from './CredentialsSelectParameter';
import { DateTimeParameter } from './DateTimeParameter';
import { NumberParameter } from './NumberParameter';
import type { OptionChoice } from './editorValues';
import { OptionsParameter } from './OptionsParameter';
import { TextParameter } from './TextParameter';

export interface ParameterInputProps {
  property: NodeProperty;
  value: JsonValue | undefined;
  id: string;
  disabled: boolean;
  onValue: (value: JsonValue) => void;
  /** Options of options/multiOptions parameters (static or loaded). */
  choices: readonly OptionChoice[];
  loadingChoices: boolean;
}

/** The editor of one fixed (non-expression) value, chosen by the parameter type. */
export function ParameterInput({ property, value, id, disabled, onValue, choices, loadingChoices }: ParameterInputProps) {
  switch (property.type) {
    case 'number':
      return <NumberParameter property={property} value={value} id={id} disabled={disabled} onValue={onValue} />;
    case 'boolean':
      return <Switch id={id} size="md" checked={value === true} disabled={disabled} onChange={(event) => onValue(event.currentTarget.checked)} data-test-id="parameter-switch" />;
    case 'options':
    case 'multiOptions':
      return <OptionsParameter property={property} value={value} id={id} disabled={disabled} choices={choices} loading={loadingChoices} onValue={onValue} />;
    case 'dateTime':
      return <DateTimeParameter value={value} id={id} disabled={disabled} onValue={onValue} />;
    case 'color':
      return <ColorParameter property={property} value={value} id={id} disabled={disabled} onValue={onValue} />;
    case 'credentialsSelect':
      return <CredentialsSelectParameter property={property} value={value} id={id} disabled={disabled} onValue={onValue} />;
    default:
      return <TextParameter property={property} value={value} id={id} disabled={disabled} onValue={onValue} />;
  }
}
