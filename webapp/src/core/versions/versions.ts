/** A node type a release adds, as the version endpoint lists it. */
export interface VersionNode {
  name: string;
  displayName: string;
  icon?: string;
  iconUrl?: string;
}

/** A release as the version endpoint lists it (spec 002 §3 "Version"). */
export interface Version {
  name: string;
  createdAt: string;
  description?: string;
  documentationUrl?: string;
  hasSecurityIssue?: boolean;
  hasSecurityFix?: boolean;
  hasBreakingChange?: boolean;
  securityIssueFixVersion?: string;
  nodes?: VersionNode[];
}

/** What the client knows about versions: the running one (when listed) and the newer ones. */
export interface VersionInfo {
  current: Version | null;
  next: Version[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the endpoint's answer: a list of versions, the running one among them when the endpoint
 * knows it (n8n's format). Entries without a name are dropped; anything else than a list is no
 * versions at all (a failed fetch is swallowed, spec 002 §8).
 */
export function readVersions(body: unknown, currentName: string): VersionInfo {
  if (!Array.isArray(body)) return { current: null, next: [] };
  const versions = body.filter((entry): entry is Version => isRecord(entry) && typeof entry.name === 'string' && entry.name !== '');
  return {
    current: versions.find((version) => version.name === currentName) ?? null,
    next: versions.filter((version) => version.name !== currentName),
  };
}

/** The sidebar's updates badge: counts above 99 read 99+ (spec 002 §9). */
export function formatUpdateCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** The critical-update notice (spec 002 §8), or null when none is due. */
export interface CriticalNotice {
  /** The version to update to at least, or null for 'the latest version'. */
  fixVersion: string | null;
}

/**
 * A critical-update notice is due when the running version has a security issue and newer
 * versions exist; it names the fix version when the endpoint gives one.
 */
export function criticalNotice(info: VersionInfo): CriticalNotice | null {
  if (!info.current?.hasSecurityIssue || info.next.length === 0) return null;
  const fix = info.current.securityIssueFixVersion?.trim();
  return { fixVersion: fix ? fix : null };
}

/** A marker on a version card. */
export type VersionMarker = 'securityFix' | 'securityIssue' | 'breaking';

/** The markers a version shows in the updates drawer: its security fix, its own security issue, breaking changes. */
export function versionMarkers(version: Version): VersionMarker[] {
  const markers: VersionMarker[] = [];
  if (version.hasSecurityFix) markers.push('securityFix');
  if (version.hasSecurityIssue) markers.push('securityIssue');
  if (version.hasBreakingChange) markers.push('breaking');
  return markers;
}

/** A version's description as plain text: the endpoint sends HTML, which the editor never renders. */
export function descriptionText(html: string | undefined): string {
  if (!html) return '';
  return html
    .replace(/<(br|\/p|\/li|\/h[1-6])\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*/g, '\n')
    .trim();
}
