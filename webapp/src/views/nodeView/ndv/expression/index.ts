export { ExpressionEditorModal } from './ExpressionEditorModal';
export { InlineExpression } from './InlineExpression';
export { useExpressionResolver } from './useExpressionResolver';
