export { applyParameterChange, type ParameterChange } from './applyChange';
export { credentialReference, matchCredential, shownCredentialTypes, type CredentialMatch, type KnownCredential } from './credentials';
export { hasRemoteOptions, isEmptyValue, parameterIssues, unsupportedOptionValues, valueIssues, type ParameterIssue } from './issues';
export { clone, getNodeParameters, nodeParametersToStore, nodeParametersWithDefaults, sameJson, type NodeParametersOptions } from './nodeParameters';
export { formatPath, getAt, isJsonObject, parsePath, setAt, type PathSegment } from './path';
export { NODE_SETTINGS, nodeSetting } from './settings';
export { clampNumber, coerceValue, fromExpression, numberLimits, parseNumber, toExpression, type EvaluatedExpression, type NumberLimits } from './values';
export { CUSTOM_API_CALL_KEY, displayParameter, isCustomApiCall, isExpression, isParameterShown, levelValues, type DisplayContext } from './visibility';
