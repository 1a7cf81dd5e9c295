import { Avatar } from '@mantine/core';
import { fullName, type User } from '@/core/user';

function initials(user: User): string {
  const name = fullName(user);
  const source = name !== '' ? name : (user.email ?? '');
  return source
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

const COLORS = ['flowmill', 'blue', 'teal', 'grape', 'orange', 'indigo', 'cyan', 'pink'] as const;

/** A round avatar with the user's initials; the colour is stable per user. */
export function UserAvatar({ user, size = 40 }: { user: User; size?: number }) {
  const seed = [...user.id].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return (
    <Avatar color={COLORS[seed % COLORS.length]} radius="xl" size={size} variant={user.isPending ? 'outline' : 'light'}>
      {initials(user)}
    </Avatar>
  );
}
