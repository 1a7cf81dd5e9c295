export { TemplatesSearchView } from './TemplatesSearchView';
export { TemplatesWorkflowView } from './TemplatesWorkflowView';
export { TemplatesCollectionView } from './TemplatesCollectionView';
export { WorkflowTemplateView } from './WorkflowTemplateView';
