import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, helpLinks, mergeSettings } from './settings';

describe('settings', () => {
  it('defaults match spec 000 §3 before the server answers', () => {
    expect(DEFAULT_SETTINGS.timezone).toBe('America/New_York');
    expect(DEFAULT_SETTINGS.saveDataErrorExecution).toBe('all');
    expect(DEFAULT_SETTINGS.saveDataSuccessExecution).toBe('all');
    expect(DEFAULT_SETTINGS.saveManualExecutions).toBe(false);
    expect(DEFAULT_SETTINGS.executionTimeout).toBe(-1);
    expect(DEFAULT_SETTINGS.maxExecutionTimeout).toBe(Number.MAX_SAFE_INTEGER);
    expect(DEFAULT_SETTINGS.versionCli).toBe('0.0.0');
    expect(DEFAULT_SETTINGS.defaultLocale).toBe('en');
  });

  it('lays server values over the defaults, merging nested groups', () => {
    const merged = mergeSettings({ timezone: 'Europe/Berlin', userManagement: { enabled: true, showSetupOnFirstLoad: true, smtpSetup: false }, templates: { enabled: true, host: 'https://t.example/' } });
    expect(merged.timezone).toBe('Europe/Berlin');
    expect(merged.userManagement).toEqual({ enabled: true, showSetupOnFirstLoad: true, smtpSetup: false });
    expect(merged.templates.host).toBe('https://t.example/');
    expect(merged.executionTimeout).toBe(-1);
    expect(merged.publicApi).toEqual(DEFAULT_SETTINGS.publicApi);
  });
});

describe('helpLinks', () => {
  it("points the Help menu at Flowmill's documentation and issue tracker", () => {
    expect(helpLinks({ docsUrl: '/docs/nodes', issuesUrl: 'https://github.com/flowmill/flowmill/issues' })).toEqual([
      { key: 'quickstart', href: '/docs/nodes#quickstart' },
      { key: 'docs', href: '/docs/nodes' },
      { key: 'forum', href: 'https://github.com/flowmill/flowmill/issues' },
    ]);
    expect(helpLinks({ docsUrl: '', issuesUrl: '' })).toEqual([]);
  });
});
