import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { initialViewState, runDataViewReducer, type RunDataViewAction } from '@/core/runData/viewState';
import { RunDataViewContext } from './runDataViewContext';

/**
 * Holds the view state of the run-data panels for the open node. Opening another node resets
 * the run indexes, the run link and the chosen input node (spec 001 §4); display modes and page
 * sizes carry over.
 */
export function RunDataProvider({ nodeName, children }: { nodeName: string; children: ReactNode }) {
  const [stored, setStored] = useState(() => initialViewState(nodeName));
  const state = stored.nodeName === nodeName ? stored : initialViewState(nodeName, stored);
  if (state !== stored) setStored(state);
  const dispatch = useCallback((action: RunDataViewAction) => setStored((current) => runDataViewReducer(current, action)), []);
  const value = useMemo(() => ({ state, dispatch }), [state, dispatch]);
  return <RunDataViewContext.Provider value={value}>{children}</RunDataViewContext.Provider>;
}
