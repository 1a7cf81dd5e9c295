export { ContactPromptModal } from './ContactPromptModal';
export { PromptsLauncher } from './PromptsLauncher';
export { ValueSurveyDrawer } from './ValueSurveyDrawer';
