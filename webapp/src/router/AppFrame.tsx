import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSignOut } from '@/api/currentUser';
import { settingsEntryTarget, type AccessContext } from '@/core/access';
import type { PushStatus } from '@/core/push/pushClient';
import { routePath, type RouteName } from '@/core/routes';
import type { Settings } from '@/core/settings';
import type { User } from '@/core/user';
import { MainSidebar } from '@/components/MainSidebar';
import { closeAllModals, isModalOpen, openModal } from '@/components/modalHost';
import { PushConnectionLost } from '@/components/PushConnectionLost';
import { showToast } from '@/components/toast';
import { CriticalUpdateNotice } from '@/components/versions/CriticalUpdateNotice';
import { shouldShowSurvey } from '@/core/personalization';
import { PromptsLauncher } from '@/views/prompts';
import classes from './AppFrame.module.css';

interface AppFrameProps {
  route: RouteName;
  settings: Settings;
  access: AccessContext;
  pushStatus: PushStatus;
  children: ReactNode;
}

/** The editor frame: collapsed main sidebar on the left, the routed screen in the main area. */
export function AppFrame({ route, settings, access, pushStatus, children }: AppFrameProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();

  const handleSignOut = async () => {
    try {
      await signOut();
      // Open modals belong to the signed-out user's session.
      closeAllModals();
      await navigate(routePath('SigninView'));
    } catch (error) {
      showToast({ type: 'error', title: t('auth.signout.error'), message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <div className={classes.frame}>
      <MainSidebar
        activeRoute={route}
        user={access.user}
        templatesEnabled={access.templatesEnabled}
        settingsTo={settingsEntryTarget(access)}
        onNewCredential={() => openModal('selectCredential', {})}
        onOpenCredentials={() => openModal('credentialsList', {})}
        onOpenExecutions={() => openModal('executions', {})}
        onOpenAbout={() => openModal('about', {})}
        onSignOut={() => void handleSignOut()}
      />
      <main className={classes.main}>
        {pushStatus === 'lost' ? (
          <div className={classes.status}>
            <PushConnectionLost />
          </div>
        ) : null}
        {children}
      </main>
      <PersonalizationLauncher enabled={settings.personalizationSurveyEnabled} user={access.user} />
      {/* Prompts wait until the personalization survey is answered. */}
      <PromptsLauncher ready={!shouldShowSurvey(settings.personalizationSurveyEnabled, access.user)} />
      <CriticalUpdateNotice />
    </div>
  );
}

/**
 * Opens the personalization survey on the modal host when it is enabled and the signed-in user has
 * not answered it; answering updates the user, so it is asked once.
 */
function PersonalizationLauncher({ enabled, user }: { enabled: boolean; user: User | null }) {
  useEffect(() => {
    if (user && shouldShowSurvey(enabled, user) && !isModalOpen('personalization')) openModal('personalization', { user });
  }, [enabled, user]);
  return null;
}
