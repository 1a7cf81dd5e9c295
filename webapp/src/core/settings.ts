export type SaveDataExecution = 'all' | 'none';

/** Server settings from GET /settings. */
export interface Settings {
  versionCli: string;
  instanceId: string;
  userManagement: { enabled: boolean; showSetupOnFirstLoad: boolean; smtpSetup: boolean };
  publicApi: { enabled: boolean; latestVersion: number; path: string };
  telemetry: { enabled: boolean; config?: { key: string; url: string } };
  templates: { enabled: boolean; host: string };
  personalizationSurveyEnabled: boolean;
  workflowTagsDisabled: boolean;
  hiringBannerEnabled: boolean;
  urlBaseWebhook: string;
  endpointWebhook: string;
  endpointWebhookTest: string;
  saveDataErrorExecution: SaveDataExecution;
  saveDataSuccessExecution: SaveDataExecution;
  saveManualExecutions: boolean;
  timezone: string;
  executionTimeout: number;
  maxExecutionTimeout: number;
  oauthCallbackUrls: Record<string, string>;
  n8nMetadata: Record<string, unknown>;
  defaultLocale: string;
  versionNotifications: { enabled: boolean; endpoint: string; infoUrl: string };
  logLevel: string;
  /** Where the Help menu's documentation points (the built-in node documentation by default). */
  docsUrl: string;
  /** The issue tracker: Help menu and "Request a node". */
  issuesUrl: string;
  /** The prompts host (contact prompt, value survey): off unless an admin turns it on. */
  prompts: { enabled: boolean; host: string };
}

/** What the client assumes before the server answers (spec 000 §3). */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  versionCli: '0.0.0',
  instanceId: '',
  userManagement: { enabled: false, showSetupOnFirstLoad: false, smtpSetup: false },
  publicApi: { enabled: false, latestVersion: 1, path: 'api' },
  telemetry: { enabled: false },
  templates: { enabled: false, host: '' },
  personalizationSurveyEnabled: false,
  workflowTagsDisabled: false,
  hiringBannerEnabled: false,
  urlBaseWebhook: '',
  endpointWebhook: 'webhook',
  endpointWebhookTest: 'webhook-test',
  saveDataErrorExecution: 'all',
  saveDataSuccessExecution: 'all',
  saveManualExecutions: false,
  timezone: 'America/New_York',
  executionTimeout: -1,
  maxExecutionTimeout: Number.MAX_SAFE_INTEGER,
  oauthCallbackUrls: {},
  n8nMetadata: {},
  defaultLocale: 'en',
  versionNotifications: { enabled: false, endpoint: '', infoUrl: '' },
  logLevel: 'info',
  docsUrl: '',
  issuesUrl: '',
  prompts: { enabled: false, host: '' },
});

/** Lays the server's answer over the defaults; nested groups are merged one level deep. */
export function mergeSettings(server: Partial<Settings> | null | undefined): Settings {
  const s = server ?? {};
  return {
    ...DEFAULT_SETTINGS,
    ...s,
    userManagement: { ...DEFAULT_SETTINGS.userManagement, ...s.userManagement },
    publicApi: { ...DEFAULT_SETTINGS.publicApi, ...s.publicApi },
    telemetry: { ...DEFAULT_SETTINGS.telemetry, ...s.telemetry },
    templates: { ...DEFAULT_SETTINGS.templates, ...s.templates },
    versionNotifications: { ...DEFAULT_SETTINGS.versionNotifications, ...s.versionNotifications },
    prompts: { ...DEFAULT_SETTINGS.prompts, ...s.prompts },
  };
}

/** Flowmill's source code, linked from the About dialog. */
export const SOURCE_CODE_URL = 'https://github.com/flowmill/flowmill';
/** Flowmill's licence, linked from the About dialog. */
export const LICENSE_URL = `${SOURCE_CODE_URL}/blob/main/LICENSE`;

/** A Help menu entry: what it is and where it leads. */
export interface HelpLink {
  key: 'quickstart' | 'docs' | 'forum';
  href: string;
}

/**
 * The Help menu's destinations, Flowmill's own: the quickstart and the documentation from
 * docsUrl, the issue tracker for questions and feedback. Entries without an address are left out.
 */
export function helpLinks(settings: Pick<Settings, 'docsUrl' | 'issuesUrl'>): HelpLink[] {
  const links: HelpLink[] = [];
  if (settings.docsUrl) links.push({ key: 'quickstart', href: `${settings.docsUrl}#quickstart` }, { key: 'docs', href: settings.docsUrl });
  if (settings.issuesUrl) links.push({ key: 'forum', href: settings.issuesUrl });
  return links;
}
