import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getRoute, type RouteName } from '@/core/routes';
import { NodeViewScreen } from '@/views/nodeView/NodeViewScreen';
import { NotFoundView } from '@/views/NotFoundView';
import { ChangePasswordView } from '@/views/auth/ChangePasswordView';
import { ForgotMyPasswordView } from '@/views/auth/ForgotMyPasswordView';
import { SetupView } from '@/views/auth/SetupView';
import { SigninView } from '@/views/auth/SigninView';
import { SignupView } from '@/views/auth/SignupView';
import { APISettings } from '@/views/settings/APISettings';
import { PersonalSettings } from '@/views/settings/PersonalSettings';
import { UsersSettings } from '@/views/settings/UsersSettings';
import { TemplatesCollectionView, TemplatesSearchView, TemplatesWorkflowView, WorkflowTemplateView } from '@/views/templates';

function redirectOf(name: RouteName): ReactNode {
  const target = getRoute(name).redirectTo;
  if (target === undefined) throw new Error(`Route ${name} has no redirect target`);
  return <Navigate to={target} replace />;
}

/** What each route renders. */
export const SCREENS: Record<RouteName, ReactNode> = {
  Homepage: redirectOf('Homepage'),
  NodeViewNew: <NodeViewScreen mode="new" />,
  NodeViewExisting: <NodeViewScreen mode="existing" />,
  ExecutionById: <NodeViewScreen mode="execution" />,
  WorkflowDemo: <NodeViewScreen mode="demo" />,
  WorkflowTemplate: <WorkflowTemplateView />,
  TemplatesSearchView: <TemplatesSearchView />,
  TemplatesWorkflowView: <TemplatesWorkflowView />,
  TemplatesCollectionView: <TemplatesCollectionView />,
  SigninView: <SigninView />,
  SignupView: <SignupView />,
  SetupView: <SetupView />,
  ForgotMyPasswordView: <ForgotMyPasswordView />,
  ChangePasswordView: <ChangePasswordView />,
  SettingsRedirect: redirectOf('SettingsRedirect'),
  PersonalSettings: <PersonalSettings />,
  UsersSettings: <UsersSettings />,
  APISettings: <APISettings />,
  NotFoundView: <NotFoundView />,
};
