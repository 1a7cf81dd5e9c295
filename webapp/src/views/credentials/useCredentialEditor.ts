import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createCredential,
  deleteCredential,
  getCredential,
  newCredentialName,
  oauthAuthorizationUrl,
  testCredential,
  updateCredential,
  useCredentialTypes,
  type CredentialTestRequest,
} from '@/api/credentials';
import { useNodeTypes } from '@/api/nodeTypes';
import { showErrorToast } from '@/components/errorToast';
import type { EditCredentialProps } from '@/components/modalHost';
import {
  dataToSave,
  isTestable,
  missingRequired,
  nodeTypesWithAccess,
  normalizeName,
  oauthKind,
  resolveProperties,
  suggestedName,
  withDefaults,
  type CredentialType,
  type CredentialWithData,
} from '@/core/credentials';
import type { JsonObject, JsonValue } from '@/core/workflow/types';

/** What the banner above the fields says. */
export type CredentialBanner =
  | { kind: 'none' }
  | { kind: 'testing' }
  | { kind: 'success' }
  | { kind: 'error'; message: string }
  | { kind: 'connected' };

/** The OAuth popup's size (spec 002 §9). */
const POPUP_FEATURES = 'width=500,height=700,scrollbars=yes';

/** The state and actions of the credential modal; the modal itself only draws them. */
export function useCredentialEditor({ mode, activeId, workflowNodeTypes = [], tester, onSaved, onDeleted }: EditCredentialProps, close: () => void) {
  const { t } = useTranslation();
  const { types, isLoading: typesLoading } = useCredentialTypes();
  const { types: nodeTypes } = useNodeTypes();
  const [stored, setStored] = useState<CredentialWithData | null>(null);
  const [loading, setLoading] = useState(mode === 'edit');
  // Null until the stored or generated name arrives; a new credential shows the suggestion meanwhile.
  const [nameValue, setNameValue] = useState<string | null>(null);
  const [nameWarning, setNameWarning] = useState(false);
  const [data, setData] = useState<JsonObject>({});
  const [access, setAccess] = useState<ReadonlySet<string> | null>(null);
  const [dirty, setDirty] = useState(false);
  const [connected, setConnected] = useState(false);
  const [showValidation, setShowValidation] = useState(false);
  const [banner, setBanner] = useState<CredentialBanner>({ kind: 'none' });
  const [busy, setBusy] = useState<'saving' | 'deleting' | 'connecting' | null>(null);
  const popupCleanup = useRef<(() => void) | null>(null);

  const typeName = mode === 'new' ? activeId : stored?.type;
  const type: CredentialType | undefined = types.find((candidate) => candidate.name === typeName);
  const properties = useMemo(() => (type ? resolveProperties(type, types) : []), [type, types]);
  const accessible = useMemo(() => (type ? nodeTypesWithAccess(type, nodeTypes) : []), [type, nodeTypes]);
  const filled = useMemo(() => withDefaults(properties, data), [properties, data]);
  const missing = useMemo(() => missingRequired(properties, data), [properties, data]);
  const oauth = type ? oauthKind(type, types, data) : null;
  const name = nameValue ?? (mode === 'new' && type ? suggestedName(type) : '');
  const testers = tester ? [...workflowNodeTypes, tester.nodeType] : workflowNodeTypes;

  // Load the stored credential (edit) or generate a unique name (new).
  useEffect(() => {
    let cancelled = false;
    if (mode === 'edit') {
      getCredential(activeId)
        .then((credential) => {
          if (cancelled) return;
          setStored(credential);
          setNameValue(credential.name);
          setData(credential.data ?? {});
          setConnected(Boolean(credential.data?.oauthTokenData));
          if (credential.data?.oauthTokenData) setBanner({ kind: 'connected' });
          setLoading(false);
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          showErrorToast(t('credentialEdit.showError.loadCredential.title'), error);
          close();
        });
    }
    return () => {
      cancelled = true;
    };
  }, [mode, activeId, close, t]);

  const newType = mode === 'new' ? type : undefined;
  useEffect(() => {
    if (!newType) return;
    let cancelled = false;
    // The server makes the suggestion unique; without an answer the suggestion stands.
    newCredentialName(suggestedName(newType))
      .then((unique) => {
        if (!cancelled) setNameValue((current) => current ?? unique);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [newType]);

  useEffect(() => () => popupCleanup.current?.(), []);

  // Every node type starts with access to a new credential (spec 002 §4).
  const nodesAccess = access ?? new Set(stored ? stored.nodesAccess.map((entry) => entry.nodeType) : accessible.map((node) => node.name));

  const setName = (input: string) => {
    const { name: next, emptied } = normalizeName(input);
    setNameWarning(emptied);
    if (next !== name) {
      setNameValue(next);
      setDirty(true);
    }
  };

  const setField = (field: string, value: JsonValue) => {
    setData((current) => {
      const next = { ...current, [field]: value };
      delete next.oauthTokenData;
      return next;
    });
    setConnected(false);
    setBanner((current) => (current.kind === 'connected' ? { kind: 'none' } : current));
    setDirty(true);
  };

  const toggleAccess = (nodeType: string, allowed: boolean) => {
    const next = new Set(nodesAccess);
    if (allowed) next.add(nodeType);
    else next.delete(nodeType);
    setAccess(next);
    setDirty(true);
  };

  const runTest = useCallback(
    async (id: string | undefined, savedName: string, savedData: JsonObject) => {
      if (!type) return;
      setBanner({ kind: 'testing' });
      const body: CredentialTestRequest = { credentials: { id, name: savedName, type: type.name, data: savedData } };
      if (!type.test && tester && (type.testedBy ?? []).includes(tester.nodeType)) {
        body.nodeToTestWith = tester.nodeType;
        body.testRequest = { url: tester.url, method: tester.method };
      }
      try {
        const result = await testCredential(body);
        setBanner(result.status === 'OK' ? { kind: 'success' } : { kind: 'error', message: result.message });
      } catch (error) {
        setBanner({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [type, tester],
  );

  /** Saves (create or update); tests afterwards when testable. Resolves to the saved credential, or null. */
  const save = async (testAfter = true): Promise<CredentialWithData | null> => {
    if (!type) return null;
    if (missing.length > 0) {
      setShowValidation(true);
      return null;
    }
    setShowValidation(false);
    setBusy('saving');
    const payload = { name, type: type.name, nodesAccess: [...nodesAccess].map((nodeType) => ({ nodeType })), data: dataToSave(properties, data) };
    try {
      const saved = stored ? await updateCredential(stored.id, payload) : await createCredential(payload);
      const next = { ...saved, data: stored?.data ?? saved.data, nodesAccess: saved.nodesAccess ?? payload.nodesAccess };
      setStored(next);
      setDirty(false);
      onSaved?.({ id: saved.id, name: saved.name, type: saved.type });
      if (testAfter && isTestable(type, types, data, testers)) await runTest(saved.id, saved.name, payload.data);
      return next;
    } catch (error) {
      showErrorToast(t(stored ? 'credentialEdit.showError.updateCredential.title' : 'credentialEdit.showError.createCredential.title'), error);
      return null;
    } finally {
      setBusy(null);
    }
  };

  const retry = () => {
    if (stored) void runTest(stored.id, name, dataToSave(properties, data));
  };

  const remove = async (): Promise<boolean> => {
    if (!stored) return false;
    setBusy('deleting');
    try {
      await deleteCredential(stored.id);
      onDeleted?.(stored.id);
      return true;
    } catch (error) {
      showErrorToast(t('credentialEdit.showError.deleteCredential.title'), error);
      return false;
    } finally {
      setBusy(null);
    }
  };

  /** Saves, then sends the user to the provider in a popup; its callback page posts 'success'. */
  const connect = async () => {
    if (!oauth) return;
    const saved = await save(false);
    if (!saved) return;
    setBusy('connecting');
    let url: string;
    try {
      url = await oauthAuthorizationUrl(oauth, saved.id);
    } catch (error) {
      showErrorToast(t('credentialEdit.showError.generateAuthorizationUrl.title'), error);
      setBusy(null);
      return;
    }
    setBusy(null);
    popupCleanup.current?.();
    const popup = window.open(url, 'OAuth Authorization', POPUP_FEATURES);
    const receive = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data !== 'success') return;
      cleanup();
      popup?.close();
      setConnected(true);
      setData((current) => ({ ...current, oauthTokenData: true }));
      setBanner({ kind: 'connected' });
    };
    const cleanup = () => {
      window.removeEventListener('message', receive);
      popupCleanup.current = null;
    };
    window.addEventListener('message', receive);
    popupCleanup.current = cleanup;
  };

  return {
    loading: loading || (typesLoading && !type),
    type,
    properties,
    filled,
    missing,
    showValidation,
    setShowValidation,
    name,
    setName,
    nameWarning,
    setField,
    accessible,
    nodesAccess,
    toggleAccess,
    stored,
    dirty,
    oauth,
    connected,
    banner,
    busy,
    save,
    retry,
    remove,
    connect,
  };
}

export type CredentialEditor = ReturnType<typeof useCredentialEditor>;
