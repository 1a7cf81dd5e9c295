import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/renderApp';
import { InviteUsersModal } from './InviteUsersModal';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const emails = () => document.querySelector<HTMLInputElement>('input[name="emails"]') as HTMLInputElement;

describe('invite users dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts the addresses in its button and names a bad one', async () => {
    renderWithProviders(<InviteUsersModal opened onInvited={() => undefined} />);
    const submit = await screen.findByTestId('invite-users-submit');
    expect(submit).toBeDisabled();
    expect(submit).toHaveTextContent('Invite user');
    fireEvent.change(emails(), { target: { value: 'ann@example.com' } });
    expect(submit).toBeEnabled();
    expect(submit).toHaveTextContent('Invite user');
    fireEvent.change(emails(), { target: { value: 'ann@example.com, Bob <bob@example>' } });
    expect(submit).toHaveTextContent('Invite 2 users');
    fireEvent.blur(emails());
    expect(await screen.findByText('bob@example is not a valid email')).toBeInTheDocument();
  });

  it('sends the addresses taken from "Name <address>" as members', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json({ data: [{ user: { id: 'u2', email: 'bob@example.com' } }] }));
    vi.stubGlobal('fetch', fetchMock);
    const onInvited = vi.fn();
    renderWithProviders(<InviteUsersModal opened onInvited={onInvited} />);
    fireEvent.change(emails(), { target: { value: 'Bob Stone <bob@example.com>' } });
    fireEvent.click(screen.getByTestId('invite-users-submit'));
    await waitFor(() => expect(onInvited).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/rest/users');
    expect(JSON.parse(String(init?.body))).toEqual([{ email: 'bob@example.com', role: 'member' }]);
  });
});
