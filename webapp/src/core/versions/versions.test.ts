import { describe, expect, it } from 'vitest';
import { criticalNotice, descriptionText, formatUpdateCount, readVersions, versionMarkers } from './versions';

const latest = { name: '1.2.0', createdAt: '2026-11-20T10:00:00Z', hasSecurityFix: true };
const breaking = { name: '1.1.0', createdAt: '2026-10-01T10:00:00Z', hasBreakingChange: true };
const running = { name: '1.0.0', createdAt: '2026-09-01T10:00:00Z', hasSecurityIssue: true, securityIssueFixVersion: '1.2.0' };
const listed = [latest, breaking, running];

describe('version notices', () => {
  it('splits the running version from the newer ones', () => {
    const info = readVersions(listed, '1.0.0');
    expect(info.current?.name).toBe('1.0.0');
    expect(info.next.map((version) => version.name)).toEqual(['1.2.0', '1.1.0']);
  });

  it('reads anything but a list as no versions and drops entries without a name', () => {
    expect(readVersions({ message: 'oops' }, '1.0.0')).toEqual({ current: null, next: [] });
    expect(readVersions(undefined, '1.0.0')).toEqual({ current: null, next: [] });
    expect(readVersions([{ createdAt: 'x' }, null, { name: '' }, { name: '2.0.0', createdAt: '' }], '1.0.0').next).toEqual([{ name: '2.0.0', createdAt: '' }]);
  });

  it('asks for the fix version when the running one has a security issue', () => {
    expect(criticalNotice(readVersions(listed, '1.0.0'))).toEqual({ fixVersion: '1.2.0' });
  });

  it('asks for the latest version when no fix version is known', () => {
    const withoutFix = listed.map((version) => (version.name === '1.0.0' ? { ...version, securityIssueFixVersion: undefined } : version));
    expect(criticalNotice(readVersions(withoutFix, '1.0.0'))).toEqual({ fixVersion: null });
  });

  it('gives no notice without a security issue or without newer versions', () => {
    expect(criticalNotice(readVersions(listed, '1.1.0'))).toBeNull();
    expect(criticalNotice(readVersions([running], '1.0.0'))).toBeNull();
    expect(criticalNotice(readVersions(listed, '0.9.0'))).toBeNull();
  });

  it('caps the menu count at 99+', () => {
    expect(formatUpdateCount(1)).toBe('1');
    expect(formatUpdateCount(99)).toBe('99');
    expect(formatUpdateCount(100)).toBe('99+');
  });

  it('marks security fixes and breaking changes', () => {
    expect(versionMarkers(latest)).toEqual(['securityFix']);
    expect(versionMarkers(breaking)).toEqual(['breaking']);
    expect(versionMarkers(running)).toEqual(['securityIssue']);
    expect(versionMarkers({ name: '3', createdAt: '' })).toEqual([]);
  });

  it('shows descriptions as text, never as HTML', () => {
    expect(descriptionText('<p>Faster <b>runs</b> &amp; fixes</p><p><img src=x onerror=alert(1)>Second</p>')).toBe('Faster runs & fixes\nSecond');
    expect(descriptionText(undefined)).toBe('');
  });
});
