import { ActionIcon, Alert, Badge, Button, Center, Group, Loader, Menu, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconDots, IconMail, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { reinviteUser, useUsers } from '@/api/users';
import { keepsPromptAnswers } from '@/core/prompts/prompts';
import { routePath } from '@/core/routes';
import { fullName, isDefaultUser, isOwner, type User } from '@/core/user';
import { showErrorToast } from '@/components/errorToast';
import { openModal } from '@/components/modalHost';
import { SettingsLayout } from '@/components/settings/SettingsLayout';
import { UserAvatar } from '@/components/settings/UserAvatar';
import { useAccess } from '@/components/settings/useAccess';
import { showToast } from '@/components/toast';
import classes from '@/components/settings/settings.module.css';
import { PromptAnswers } from './PromptAnswers';

/** Owner first, then active users by name, then pending invitations by address. */
function sortUsers(users: readonly User[]): User[] {
  const rank = (user: User) => (isOwner(user) ? 0 : user.isPending ? 2 : 1);
  const label = (user: User) => (fullName(user) || (user.email ?? '')).toLowerCase();
  return [...users].sort((a, b) => rank(a) - rank(b) || label(a).localeCompare(label(b)));
}

interface UserRowProps {
  user: User;
  currentUserId: string;
  onDelete: (user: User) => void;
  onReinvite: (user: User) => void;
}

function UserRow({ user, currentUserId, onDelete, onReinvite }: UserRowProps) {
  const { t } = useTranslation();
  const pending = user.isPending === true;
  const isSelf = user.id === currentUserId;
  const canManage = !isSelf && !isOwner(user);
  return (
    <Group className={classes.userRow} justify="space-between" wrap="nowrap" data-test-id="user-row" data-email={user.email ?? ''}>
      <Group gap="md" wrap="nowrap">
        <UserAvatar user={user} />
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600} size="sm">
              {pending ? user.email : fullName(user)}
            </Text>
            {isSelf ? (
              <Text size="sm" c="dimmed">
                {t('settings.users.you')}
              </Text>
            ) : null}
            {pending ? (
              <Badge color="yellow" variant="light" size="sm" data-test-id="user-pending-badge">
                {t('settings.users.pending')}
              </Badge>
            ) : null}
          </Group>
          {!pending ? (
            <Text size="sm" c="dimmed">
              {user.email}
            </Text>
          ) : null}
        </Stack>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Badge variant={isOwner(user) ? 'filled' : 'default'} color={isOwner(user) ? 'flowmill' : 'gray'} size="md">
          {isOwner(user) ? t('settings.users.roles.owner') : t('settings.users.roles.member')}
        </Badge>
        {canManage ? (
          <Menu position="bottom-end" withArrow>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('settings.users.actionsFor', { email: user.email ?? '' })} data-test-id="user-actions">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {pending ? (
                <Menu.Item leftSection={<IconMail size={16} />} onClick={() => onReinvite(user)} data-test-id="user-reinvite">
                  {t('settings.users.reinvite')}
                </Menu.Item>
              ) : null}
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onDelete(user)} data-test-id="user-delete">
                {t('settings.users.deleteUser')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : (
          <div style={{ width: 28 }} />
        )}
      </Group>
    </Group>
  );
}

function SetupActionBox() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="xl" bg="gray.0" data-test-id="users-setup-box">
      <Stack align="center" gap="sm" py="md">
        <Title order={2} fz="h4" ta="center">
          {t('settings.users.setupToInviteUsers')}
        </Title>
        <Text size="sm" c="dimmed" ta="center" maw={460}>
          {t('settings.users.setupToInviteUsersInfo')}
        </Text>
        <Button component={Link} to={routePath('SetupView')} mt="sm" data-test-id="users-setup-button">
          {t('settings.users.setupMyAccount')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** Users and invitations (spec 000 §2, spec 002): invite, re-invite and delete. */
export function UsersSettings() {
  const { t } = useTranslation();
  const { settings, access } = useAccess();
  const me = access.user;
  const notSetUp = me !== null && isDefaultUser(me);
  const { users, isLoading, error, reload } = useUsers(!notSetUp);
  const smtpSetup = settings.userManagement.smtpSetup;

  const onReinvite = async (user: User) => {
    try {
      await reinviteUser(user.id);
      showToast({ type: 'success', title: t('settings.users.inviteResent'), message: t('settings.users.emailSentTo', { email: user.email ?? '' }) });
    } catch (failure) {
      showErrorToast(t('settings.users.reinviteError'), failure);
    }
  };

  const inviteButton = (
    <Button leftSection={<IconUserPlus size={16} />} disabled={!smtpSetup} onClick={() => openModal('inviteUser', { onInvited: () => void reload() })} data-test-id="settings-users-invite-button">
      {t('settings.users.invite')}
    </Button>
  );
  const actions = notSetUp ? null : smtpSetup ? (
    inviteButton
  ) : (
    <Tooltip label={t('settings.users.smtpRequiredTooltip')} withArrow multiline w={260} position="bottom-end">
      <span data-test-id="invite-disabled-tooltip-target">{inviteButton}</span>
    </Tooltip>
  );

  return (
    <SettingsLayout active="UsersSettings" title={t('settings.users.title')} actions={actions} testId="users-settings">
      {!smtpSetup && !notSetUp ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={t('settings.users.smtpWarningTitle')} data-test-id="smtp-warning">
          {t('settings.users.smtpToAddUsersWarning')}
        </Alert>
      ) : null}
      {notSetUp ? <SetupActionBox /> : null}
      {!notSetUp && isLoading ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : null}
      {!notSetUp && error ? (
        <Alert color="red" variant="light" title={t('settings.users.loadError')}>
          {error instanceof Error ? error.message : String(error)}
        </Alert>
      ) : null}
      {!notSetUp && users ? (
        <Paper withBorder radius="lg" data-test-id="users-list">
          {sortUsers(users).map((user) => (
            <UserRow key={user.id} user={user} currentUserId={me?.id ?? ''} onDelete={(user) => openModal('deleteUser', { user, users: users ?? [], onDeleted: () => void reload() })} onReinvite={(target) => void onReinvite(target)} />
          ))}
        </Paper>
      ) : null}
      {keepsPromptAnswers(settings) && me !== null && (isOwner(me) || notSetUp) ? <PromptAnswers /> : null}
    </SettingsLayout>
  );
}
