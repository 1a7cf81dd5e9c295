import { Menu, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconCopy,
  IconDeviceFloppy,
  IconDownload,
  IconFileImport,
  IconFilePlus,
  IconFolderOpen,
  IconLink,
  IconSettings,
  IconSitemap,
  IconTemplate,
  IconTrash,
} from '@tabler/icons-react';
import { useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isCommandEnabled, workflowCommands, type WorkflowCommand } from '@/core/editor/commands';
import classes from './MainSidebar.module.css';

const ITEMS: ReadonlyArray<{ command: WorkflowCommand; icon: ReactNode; divider?: boolean }> = [
  { command: 'new', icon: <IconFilePlus size={16} /> },
  { command: 'open', icon: <IconFolderOpen size={16} /> },
  { command: 'save', icon: <IconDeviceFloppy size={16} /> },
  { command: 'duplicate', icon: <IconCopy size={16} /> },
  { command: 'delete', icon: <IconTrash size={16} /> },
  { command: 'download', icon: <IconDownload size={16} />, divider: true },
  { command: 'importUrl', icon: <IconLink size={16} /> },
  { command: 'importFile', icon: <IconFileImport size={16} /> },
  { command: 'settings', icon: <IconSettings size={16} />, divider: true },
];

/** The sidebar's Workflows submenu (spec 001 §2); the open editor carries out the operations. */
export function WorkflowsMenu({ active, templatesEnabled }: { active: boolean; templatesEnabled: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const availability = useSyncExternalStore(workflowCommands.subscribe, workflowCommands.getAvailability);
  const label = t('mainSidebar.workflows');

  const run = (command: WorkflowCommand) => {
    if (workflowCommands.dispatch(command)) return;
    // Without an open editor, new and open go to the editor first.
    if (command === 'new') void navigate('/workflow', { state: { newToast: true } });
    if (command === 'open') void navigate('/workflow', { state: { openDialog: true } });
  };

  return (
    <Menu position="right-start" withArrow offset={10} width={220}>
      <Menu.Target>
        <Tooltip label={label} position="right" withArrow openDelay={150}>
          <UnstyledButton className={classes.entry} aria-label={label} data-active={active || undefined} data-test-id="workflow-menu">
            <IconSitemap size={22} stroke={1.6} />
            <span className={classes.label}>{label}</span>
          </UnstyledButton>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        {ITEMS.map(({ command, icon, divider }) => (
          <div key={command}>
            {divider ? <Menu.Divider /> : null}
            <Menu.Item leftSection={icon} disabled={!isCommandEnabled(command, availability)} onClick={() => run(command)} data-test-id={`workflow-menu-item-${command}`}>
              {t(`mainSidebar.workflowsMenu.${command}`)}
            </Menu.Item>
            {command === 'new' && templatesEnabled ? (
              <Menu.Item leftSection={<IconTemplate size={16} />} onClick={() => void navigate('/templates/')} data-test-id="workflow-menu-item-newFromTemplate">
                {t('mainSidebar.workflowsMenu.newFromTemplate')}
              </Menu.Item>
            ) : null}
          </div>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
