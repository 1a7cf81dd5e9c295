import { describe, expect, it } from 'vitest';
import { fullName, isDefaultUser, userRole, type User } from './user';

const owner: User = { id: '1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', globalRole: { name: 'owner' }, isPending: false };

describe('user roles', () => {
  it('a set-up owner has the owner role', () => {
    expect(isDefaultUser(owner)).toBe(false);
    expect(userRole(owner)).toBe('owner');
  });

  it('a pending owner is the default user', () => {
    expect(userRole({ id: '1', globalRole: { name: 'owner' }, isPending: true, email: null })).toBe('default');
  });

  it('an owner without an e-mail is the default user', () => {
    expect(userRole({ id: '1', globalRole: { name: 'owner' }, email: null })).toBe('default');
  });

  it('a pending member is still a member', () => {
    expect(userRole({ id: '2', globalRole: { name: 'member' }, isPending: true, email: 'm@example.com' })).toBe('member');
  });

  it('a user without a global role has no role', () => {
    expect(userRole({ id: '3', email: 'x@example.com' })).toBeNull();
  });

  it('joins the full name without empty parts', () => {
    expect(fullName(owner)).toBe('Ada Lovelace');
    expect(fullName({ id: '4', firstName: 'Solo', lastName: null })).toBe('Solo');
  });
});
