export { appName, documentationLink, normalizeName, suggestedName } from './names';
export { nodeTypesWithAccess } from './access';
export { dataToSave, isKeptSecret, isMissing, isPropertyShown, isTestable, missingRequired, oauthKind, parentTypes, resolveProperties, shownProperties, withDefaults } from './properties';
export * from './types';
