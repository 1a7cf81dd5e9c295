import { Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ASSIGNMENT_TYPES, newAssignment, readAssignments, type Assignment } from '@/core/parameters/filterConditions';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { AddMenu } from './AddMenu';
import { ItemActions } from './ItemActions';
import { ParameterLabel } from './ParameterLabel';
import { RowInput } from './RowInput';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

/**
 * n8n 1.x's assignment collection (Edit Fields 3.3+): rows of field name, type and value.
 * Values starting with "=" are expressions.
 */
export function AssignmentCollectionParameter({ property, value, path }: { property: NodeProperty; value: JsonValue | undefined; path: string }) {
  const { t } = useTranslation();
  const { readOnly, onChange } = useParameters();
  const assignments = readAssignments(value);
  const save = (next: Assignment[]) => onChange({ path, value: { assignments: next } });
  const set = (index: number, assignment: Assignment) => save(assignments.map((a, i) => (i === index ? assignment : a)));
  const typeData = ASSIGNMENT_TYPES.map((type) => ({ value: type, label: t(`filter.type.${type}`) }));

  return (
    <div className={classes.item} data-test-id={`assignment-collection-${property.name}`} data-name={property.name}>
      <div className={classes.labelRow}>
        <ParameterLabel property={property} />
      </div>
      <Stack gap="xs" className={classes.nested}>
        {assignments.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('assignments.empty')}
          </Text>
        ) : null}
        {assignments.map((assignment, index) => (
          <ItemActions
            key={typeof assignment.id === 'string' ? assignment.id : index}
            deleteLabel={t('assignments.remove')}
            onDelete={readOnly ? undefined : () => save(assignments.filter((_, i) => i !== index))}
          >
            <div className={`${classes.conditionRow} ${classes.assignmentRow}`} data-test-id="assignment">
              <RowInput
                label={t('assignments.name')}
                className={classes.conditionCell}
                value={assignment.name}
                disabled={readOnly}
                onText={(name) => set(index, { ...assignment, name })}
                testId="assignment-name"
              />
              <Select
                size="xs"
                className={classes.conditionCell}
                data={typeData}
                value={assignment.type}
                allowDeselect={false}
                disabled={readOnly}
                aria-label={t('assignments.type')}
                onChange={(next) => set(index, { ...assignment, type: ASSIGNMENT_TYPES.find((type) => type === next) ?? 'string' })}
                data-test-id="assignment-type"
              />
              <RowInput
                label={t('assignments.value')}
                className={classes.fullRow}
                value={assignment.value}
                disabled={readOnly}
                onText={(value) => set(index, { ...assignment, value })}
                testId="assignment-value"
              />
            </div>
          </ItemActions>
        ))}
        {readOnly ? null : (
          <AddMenu label={t('assignments.add')} choices={[{ value: 'field', label: t('assignments.add') }]} onPick={() => save([...assignments, newAssignment()])} testId="assignment-add" />
        )}
      </Stack>
    </div>
  );
}
