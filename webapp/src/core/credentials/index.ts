export { appName, documentationLink, normalizeName, suggestedName } from './names';
export { dataToSave, isKeptSecret, isMissing, isPropertyShown, isTestable, missingRequired, oauthKind, parentTypes, resolveProperties, shownProperties, withDefaults } from './properties';
export * from './types';
