import { Badge, Button, Group, Loader, MultiSelect, Table, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSearch, IconTags } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_WORKFLOW_SORT, filterWorkflows, sortWorkflows, type WorkflowSort, type WorkflowSortKey } from '@/core/editor/workflowList';
import { formatDateTime, timeAgo } from '@/core/timeAgo';
import { useTags, useWorkflowList } from '@/api/workflows';
import { openModal, StackedModal } from '@/components/modalHost';
import { TagList } from '@/views/nodeView/header/TagsEditor';

/** Tags shown per row in the open dialog before '+N'. */
export const OPEN_LIST_TAG_LIMIT = 3;

/** A time-ago label (spec 002 §2), the full date and time on hover. */
function When({ date }: { date: string }) {
  return (
    <Tooltip label={formatDateTime(date)} withinPortal zIndex={1000}>
      <Text size="sm" span>
        {timeAgo(date)}
      </Text>
    </Tooltip>
  );
}

/** The workflow-open dialog (spec 002 §2): filter by name and tags, sortable columns. */
export function WorkflowOpenModal({ onOpen, onClose }: { onOpen: (id: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: workflows, isLoading } = useWorkflowList();
  const { data: tags = [] } = useTags();
  const [name, setName] = useState('');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [sort, setSort] = useState<WorkflowSort>(DEFAULT_WORKFLOW_SORT);
  const rows = useMemo(() => sortWorkflows(filterWorkflows(workflows ?? [], { name, tagIds }), sort), [workflows, name, tagIds, sort]);

  const header = (key: WorkflowSortKey, label: string) => (
    <Table.Th>
      <UnstyledButton
        fw={600}
        fz="sm"
        onClick={() => setSort((s) => ({ key, direction: s.key === key && s.direction === 'desc' ? 'asc' : 'desc' }))}
        aria-label={t('workflowOpen.sortBy', { column: label })}
      >
        <Group gap={4} wrap="nowrap">
          {label}
          {sort.key === key ? sort.direction === 'asc' ? <IconArrowUp size={14} /> : <IconArrowDown size={14} /> : null}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );

  return (
    <StackedModal opened onClose={onClose} title={t('workflowOpen.title')} size="80%" attributes={{ content: { 'data-test-id': 'workflow-open-modal' } }}>
      <Group mb="md" grow>
        <TextInput
          placeholder={t('workflowOpen.searchPlaceholder')}
          aria-label={t('workflowOpen.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          data-test-id="workflow-open-search"
          autoFocus
        />
        <MultiSelect
          placeholder={t('workflowOpen.filterTags')}
          aria-label={t('workflowOpen.filterTags')}
          data={tags.map((tag) => ({ value: tag.id, label: tag.name }))}
          value={tagIds}
          onChange={setTagIds}
          searchable
          clearable
          data-test-id="workflow-open-tags"
        />
      </Group>
      {isLoading ? (
        <Loader />
      ) : (
        <Table.ScrollContainer minWidth={600} mah={450}>
          <Table highlightOnHover stickyHeader data-test-id="workflow-open-list">
            <Table.Thead>
              <Table.Tr>
                {header('name', t('workflowOpen.name'))}
                {header('createdAt', t('workflowOpen.created'))}
                {header('updatedAt', t('workflowOpen.updated'))}
                <Table.Th>{t('workflowOpen.active')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((workflow) => (
                <Table.Tr key={workflow.id} style={{ cursor: 'pointer' }} onClick={() => onOpen(workflow.id)} data-test-id="workflow-open-row" data-name={workflow.name}>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Text fw={600} size="sm">
                        {workflow.name}
                      </Text>
                      <TagList tags={workflow.tags} limit={OPEN_LIST_TAG_LIMIT} />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <When date={workflow.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <When date={workflow.updatedAt} />
                  </Table.Td>
                  <Table.Td>
                    <Badge color={workflow.active ? 'teal' : 'gray'} variant="light">
                      {workflow.active ? t('activation.active') : t('activation.inactive')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" ta="center" py="md">
                      {t('workflowOpen.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-start" mt="sm">
        <Button variant="subtle" color="gray" size="compact-sm" leftSection={<IconTags size={16} />} onClick={() => openModal('tagsManager', {})} data-test-id="workflow-open-manage-tags">
          {t('tagsManager.open')}
        </Button>
      </Group>
    </StackedModal>
  );
}
