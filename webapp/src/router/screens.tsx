import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getRoute, type RouteName } from '../core/routes';
import { NodeViewScreen } from '../views/nodeView/NodeViewScreen';
import { NotFoundView } from '../views/NotFoundView';
import { PendingScreen } from '../views/pending/PendingScreen';

function redirectOf(name: RouteName): ReactNode {
  const target = getRoute(name).redirectTo;
  if (target === undefined) throw new Error(`Route ${name} has no redirect target`);
  return <Navigate to={target} replace />;
}

/** What each route renders. Screens still pending point at PendingScreen until they are built. */
export const SCREENS: Record<RouteName, ReactNode> = {
  Homepage: redirectOf('Homepage'),
  NodeViewNew: <NodeViewScreen mode="new" />,
  NodeViewExisting: <NodeViewScreen mode="existing" />,
  ExecutionById: <NodeViewScreen mode="execution" />,
  WorkflowDemo: <NodeViewScreen mode="demo" />,
  WorkflowTemplate: <PendingScreen name="WorkflowTemplate" />,
  TemplatesSearchView: <PendingScreen name="TemplatesSearchView" />,
  TemplatesWorkflowView: <PendingScreen name="TemplatesWorkflowView" />,
  TemplatesCollectionView: <PendingScreen name="TemplatesCollectionView" />,
  SigninView: <PendingScreen name="SigninView" />,
  SignupView: <PendingScreen name="SignupView" />,
  SetupView: <PendingScreen name="SetupView" />,
  ForgotMyPasswordView: <PendingScreen name="ForgotMyPasswordView" />,
  ChangePasswordView: <PendingScreen name="ChangePasswordView" />,
  SettingsRedirect: redirectOf('SettingsRedirect'),
  PersonalSettings: <PendingScreen name="PersonalSettings" />,
  UsersSettings: <PendingScreen name="UsersSettings" />,
  APISettings: <PendingScreen name="APISettings" />,
  NotFoundView: <NotFoundView />,
};
