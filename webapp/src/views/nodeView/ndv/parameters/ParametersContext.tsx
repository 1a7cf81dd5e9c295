import { createContext, useContext } from 'react';
import type { ParameterChange } from '@/core/parameters';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { JsonObject, WorkflowNode } from '@/core/workflow/types';

/** What every editor in one parameter list shares. */
export interface ParametersContextValue {
  node: WorkflowNode;
  type: NodeTypeDescription;
  /** Top-level values with defaults, for `/` rules and remote option loads. */
  root: JsonObject;
  readOnly: boolean;
  onChange: (change: ParameterChange) => void;
}

export const ParametersContext = createContext<ParametersContextValue | null>(null);

export function useParameters(): ParametersContextValue {
  const value = useContext(ParametersContext);
  if (!value) throw new Error('useParameters outside a parameter list');
  return value;
}
