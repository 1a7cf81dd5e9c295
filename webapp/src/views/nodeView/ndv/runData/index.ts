export { RunDataProvider } from './RunDataProvider';
export { InputPanel } from './InputPanel';
export { hasInputPanel } from '@/core/runData/inputNodes';
export { OutputPanel, type OutputPanelProps } from './OutputPanel';
export { NodeErrorView, type NodeErrorViewProps } from './NodeErrorView';
