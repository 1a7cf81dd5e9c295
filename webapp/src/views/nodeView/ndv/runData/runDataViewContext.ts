import { createContext, useContext, type Dispatch } from 'react';
import type { RunDataViewAction, RunDataViewState } from '@/core/runData/viewState';

export interface RunDataViewContextValue {
  state: RunDataViewState;
  dispatch: Dispatch<RunDataViewAction>;
}

export const RunDataViewContext = createContext<RunDataViewContextValue | null>(null);

/** The run-data view state of the open node (run indexes, link, input node, per-pane display). */
export function useRunDataView(): RunDataViewContextValue {
  const value = useContext(RunDataViewContext);
  if (!value) throw new Error('useRunDataView outside RunDataProvider');
  return value;
}
