export { applyParameterChange, nodeParametersWithDefaults, type ParameterChange } from '@/core/parameters';
export { NodeParameters } from './NodeParameters';
export { NodeSettings } from './NodeSettings';
