import { issueKey, type NodeIssue } from '@/core/workflow/nodeIssues';
import { i18n } from '@/i18n';

/** The sentence for an issue, from its one-line key (canvas data) or the issue itself. */
export function issueText(issue: string | NodeIssue): string {
  const key = typeof issue === 'string' ? issue : issueKey(issue);
  const [kind, ...rest] = key.split(':');
  const detail = rest.join(':');
  switch (kind) {
    case 'typeUnknown':
      return i18n.t('node.issues.typeUnknown');
    case 'typeVersionUnknown': {
      const [version = '', ...known] = detail.split(':');
      return i18n.t('node.issues.typeVersionUnknown', { version, known: known.join(':') });
    }
    case 'parameters':
      return i18n.t('node.issues.parameter', { name: detail });
    case 'optionNotSupported':
      return i18n.t('parameters.notSupported', { value: detail });
    case 'credentialTypeNotSelected':
      return i18n.t('parameters.selectCredentialType');
    case 'credentials':
      return i18n.t('node.issues.credentials', { name: detail });
    case 'credentialsNotFound':
    case 'credentialsAmbiguous': {
      const [type = '', ...name] = detail.split(':');
      const key = kind === 'credentialsNotFound' ? 'parameters.credentialsDoNotExist' : 'parameters.credentialsNotIdentified';
      return i18n.t(key, { type, name: name.join(':') });
    }
    case 'execution':
      return i18n.t('node.issues.execution', { message: detail });
    default:
      return key;
  }
}

/** Every issue of the nodes, one line each, for the run and activation refusals. */
export function issueList(issues: ReadonlyMap<string, NodeIssue[]>): string {
  return [...issues.entries()].flatMap(([node, list]) => list.map((issue) => `${node}: ${issueText(issue)}`)).join('\n');
}
