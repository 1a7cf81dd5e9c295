import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { getWorkflowTemplate } from '@/api/templates';
import { showToast } from '@/components/toast';
import { useTemplatesEndpoint } from './useTemplatesEndpoint';

/**
 * /workflows/templates/:id: fetches the template and opens it as a new, unsaved workflow on the
 * canvas (as n8n does, on the new-workflow route); on failure says "Couldn't import workflow" and
 * opens a new workflow.
 */
export function WorkflowTemplateView() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { endpoint } = useTemplatesEndpoint();

  useEffect(() => {
    if (!endpoint || id === undefined) return undefined;
    let live = true;
    getWorkflowTemplate(endpoint, id)
      .then((template) => {
        if (!Array.isArray(template?.workflow?.nodes)) throw new Error(t('templates.workflowsNotFound'));
        if (live) void navigate('/workflow', { replace: true, state: { template: { name: template.name, workflow: template.workflow } } });
      })
      .catch((error: unknown) => {
        if (!live) return;
        showToast({ type: 'error', title: t('templates.couldntImportWorkflow'), message: error instanceof Error ? error.message : String(error) });
        void navigate('/workflow', { replace: true });
      });
    return () => {
      live = false;
    };
  }, [endpoint, id, navigate, t]);

  return (
    <Center h="100vh" data-test-id="workflow-template-view">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{t('templates.importing')}</Text>
      </Stack>
    </Center>
  );
}
