import { Avatar, Menu, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconHelpCircle,
  IconInfoCircle,
  IconFolderOpen,
  IconKey,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconPlus,
  IconListDetails,
  IconLogout,
  IconBook,
  IconMessages,
  IconPlayerPlay,
  IconSettings,
  IconTemplate,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings } from '@/api/settings';
import type { RouteName } from '@/core/routes';
import { helpLinks, type HelpLink } from '@/core/settings';
import { fullName, type User } from '@/core/user';
import { Logo } from './Logo';
import { UpdatesEntry } from './UpdatesEntry';
import { useSidebarExpanded } from './sidebarExpanded';
import { WorkflowsMenu } from './WorkflowsMenu';
import classes from './MainSidebar.module.css';

const WORKFLOW_ROUTES: ReadonlySet<RouteName> = new Set(['NodeViewNew', 'NodeViewExisting', 'ExecutionById', 'WorkflowTemplate']);
/** Help menu icons (spec 001 §2); the destinations are Flowmill's own, from the settings. */
const HELP_ICONS: Record<HelpLink['key'], Icon> = { quickstart: IconPlayerPlay, docs: IconBook, forum: IconMessages };
const TEMPLATE_ROUTES: ReadonlySet<RouteName> = new Set(['TemplatesSearchView', 'TemplatesWorkflowView', 'TemplatesCollectionView']);

export interface MainSidebarProps {
  activeRoute: RouteName;
  user: User | null;
  templatesEnabled: boolean;
  /** Where the settings entry leads; null hides it (the user may reach no settings page). */
  settingsTo: string | null;
  /** Credentials → New: choose the type of a new credential. */
  onNewCredential: () => void;
  /** Credentials → Open: the credentials list. */
  onOpenCredentials: () => void;
  onOpenExecutions: () => void;
  onOpenAbout: () => void;
  onSignOut: () => void;
}

interface EntryProps {
  id: string;
  label: string;
  icon: Icon;
  active?: boolean;
  to?: string;
  onClick?: () => void;
}

function Entry({ id, label, icon: EntryIcon, active, to, onClick }: EntryProps) {
  const content: ReactNode = (
    <>
      <EntryIcon size={22} stroke={1.6} />
      <span className={classes.label}>{label}</span>
    </>
  );
  const common = {
    className: classes.entry,
    'aria-label': label,
    'data-active': active || undefined,
    'data-test-id': `main-sidebar-${id}`,
  };
  return (
    <Tooltip label={label} position="right" withArrow openDelay={150}>
      {to !== undefined ? (
        <UnstyledButton component={Link} to={to} aria-current={active ? 'page' : undefined} {...common}>
          {content}
        </UnstyledButton>
      ) : (
        <UnstyledButton onClick={onClick} {...common}>
          {content}
        </UnstyledButton>
      )}
    </Tooltip>
  );
}

function initials(user: User): string {
  const name = fullName(user);
  const source = name !== '' ? name : (user.email ?? '');
  const letters = source
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase());
  return letters.join('');
}

/** The collapsed main sidebar of the editor screens (spec 001 §2 "Header, sidebar, dialogs"). */
export function MainSidebar({
  activeRoute,
  user,
  templatesEnabled,
  settingsTo,
  onNewCredential,
  onOpenCredentials,
  onOpenExecutions,
  onOpenAbout,
  onSignOut,
}: MainSidebarProps) {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const userLabel = user ? fullName(user) || (user.email ?? '') : '';
  const [expanded, setExpanded] = useSidebarExpanded();
  const toggleLabel = expanded ? t('mainSidebar.collapse') : t('mainSidebar.expand');

  return (
    <nav className={classes.root} data-test-id="main-sidebar" data-expanded={expanded || undefined} aria-label={t('app.name')}>
      <Link to="/" className={classes.brand} aria-label={t('app.name')}>
        <Logo size={34} />
      </Link>

      <div className={classes.entries}>
        <WorkflowsMenu active={WORKFLOW_ROUTES.has(activeRoute)} templatesEnabled={templatesEnabled} />
        {templatesEnabled ? (
          <Entry id="templates" label={t('mainSidebar.templates')} icon={IconTemplate} to="/templates/" active={TEMPLATE_ROUTES.has(activeRoute)} />
        ) : null}
        <Menu position="right-start" withArrow offset={10} width={200}>
          <Menu.Target>
            <Tooltip label={t('mainSidebar.credentials')} position="right" withArrow openDelay={150}>
              <UnstyledButton className={classes.entry} aria-label={t('mainSidebar.credentials')} data-test-id="main-sidebar-credentials">
                <IconKey size={22} stroke={1.6} />
                <span className={classes.label}>{t('mainSidebar.credentials')}</span>
              </UnstyledButton>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t('mainSidebar.credentials')}</Menu.Label>
            <Menu.Item leftSection={<IconPlus size={16} />} onClick={onNewCredential} data-test-id="main-sidebar-credentials-new">
              {t('mainSidebar.credentials.new')}
            </Menu.Item>
            <Menu.Item leftSection={<IconFolderOpen size={16} />} onClick={onOpenCredentials} data-test-id="main-sidebar-credentials-open">
              {t('mainSidebar.credentials.open')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Entry id="executions" label={t('mainSidebar.executions')} icon={IconListDetails} onClick={onOpenExecutions} />
        {settingsTo !== null ? <Entry id="settings" label={t('mainSidebar.settings')} icon={IconSettings} to={settingsTo} /> : null}
      </div>

      <div className={classes.spacer} />

      <UpdatesEntry />

      <Menu position="right-end" withArrow offset={10} width={200}>
        <Menu.Target>
          <UnstyledButton className={classes.entry} aria-label={t('mainSidebar.help')} data-test-id="main-sidebar-help">
            <IconHelpCircle size={22} stroke={1.6} />
            <span className={classes.label}>{t('mainSidebar.help')}</span>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('mainSidebar.help')}</Menu.Label>
          {helpLinks(settings).map(({ key, href }) => {
            const ItemIcon = HELP_ICONS[key];
            return (
              <Menu.Item key={key} component="a" href={href} target="_blank" rel="noreferrer" leftSection={<ItemIcon size={16} />} data-test-id={`help-menu-${key}`}>
                {t(`mainSidebar.helpMenu.${key}`)}
              </Menu.Item>
            );
          })}
          <Menu.Item leftSection={<IconInfoCircle size={16} />} onClick={onOpenAbout}>
            {t('mainSidebar.helpMenu.about')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      {user ? (
        <Menu position="right-end" withArrow offset={10} width={200}>
          <Menu.Target>
            <UnstyledButton className={classes.userButton} aria-label={t('mainSidebar.userMenu.label', { name: userLabel })} data-test-id="user-menu">
              <Avatar color="flowmill" radius="xl" size={34}>
                {initials(user)}
              </Avatar>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            {userLabel !== '' ? <Menu.Label>{userLabel}</Menu.Label> : null}
            {settingsTo !== null ? (
              <Menu.Item component={Link} to={settingsTo} leftSection={<IconSettings size={16} />}>
                {t('mainSidebar.userMenu.settings')}
              </Menu.Item>
            ) : null}
            <Menu.Item leftSection={<IconLogout size={16} />} onClick={onSignOut}>
              {t('mainSidebar.userMenu.signout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : null}

      <Tooltip label={toggleLabel} position="right" withArrow openDelay={150}>
        <UnstyledButton className={`${classes.entry} ${classes.toggle}`} aria-label={toggleLabel} aria-expanded={expanded} data-test-id="main-sidebar-toggle" onClick={() => setExpanded(!expanded)}>
          {expanded ? <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} /> : <IconLayoutSidebarLeftExpand size={20} stroke={1.6} />}
          <span className={classes.label}>{t('mainSidebar.collapse')}</span>
        </UnstyledButton>
      </Tooltip>
    </nav>
  );
}
