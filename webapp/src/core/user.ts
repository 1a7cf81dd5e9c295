/** Global roles the server knows. */
export type GlobalRoleName = 'owner' | 'member';

/** Roles a route rule can name: `default` is the owner before owner setup is done. */
export type Role = 'default' | GlobalRoleName;

/** The signed-in user as GET /login and GET /me return it. */
export interface User {
  id: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  globalRole?: { name: GlobalRoleName; id?: string | number } | null;
  isPending?: boolean;
  personalizationAnswers?: Record<string, unknown> | null;
}

export function isOwner(user: User): boolean {
  return user.globalRole?.name === 'owner';
}

/** The default user is a pending owner: it exists before owner setup and has no e-mail. */
export function isDefaultUser(user: User): boolean {
  return isOwner(user) && (user.isPending === true || !user.email);
}

/** An invited member who has not signed up yet (no first name). */
export function isPendingUser(user: User): boolean {
  return user.isPending === true;
}

/** Role used by route rules; null when the user carries no global role. */
export function userRole(user: User): Role | null {
  if (isDefaultUser(user)) return 'default';
  return user.globalRole?.name ?? null;
}

/** First and last name joined, skipping empty parts. */
export function fullName(user: User): string {
  return [user.firstName, user.lastName].filter((part) => part !== null && part !== undefined && part !== '').join(' ');
}
