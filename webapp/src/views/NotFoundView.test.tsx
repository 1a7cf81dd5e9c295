import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/renderApp';
import { NotFoundView } from './NotFoundView';

describe('NotFoundView', () => {
  it('shows code 404, the page-not-found message and a link home', () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/no/such/page']}>
        <NotFoundView />
      </MemoryRouter>,
    );
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "Oops, couldn't find that" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });
});
