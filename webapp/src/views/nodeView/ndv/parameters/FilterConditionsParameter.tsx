import { Select, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import {
  filterOperators,
  newCondition,
  operatorFromKey,
  operatorKey,
  readFilter,
  rightValueFromInput,
  withCondition,
  withOperator,
  type FilterCondition,
  valueText,
  type FilterValue,
} from '@/core/parameters/filterConditions';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue } from '@/core/workflow/types';
import { AddMenu } from './AddMenu';
import { ItemActions } from './ItemActions';
import { ParameterLabel } from './ParameterLabel';
import { RowInput } from './RowInput';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

/**
 * n8n 1.x's filter conditions (IF 2, Filter 2): rows of value, operator and value, combined
 * with AND or OR. Values starting with "=" are expressions.
 */
export function FilterConditionsParameter({ property, value, path }: { property: NodeProperty; value: JsonValue | undefined; path: string }) {
  const { t } = useTranslation();
  const { readOnly, onChange, root } = useParameters();
  const filter = readFilter(value, root.options);
  const save = (next: FilterValue) => onChange({ path, value: next });
  const setCondition = (index: number, condition: FilterCondition) => save(withCondition(filter, index, condition, root.options));
  const operatorData = filterOperators().map((group) => ({
    group: t(`filter.type.${group.type}`),
    items: group.operators.map((operator) => ({ value: operatorKey(operator), label: t(`filter.operation.${operator.operation}`) })),
  }));
  const combinatorData = [
    { value: 'and', label: t('filter.combinator.and') },
    { value: 'or', label: t('filter.combinator.or') },
  ];

  return (
    <div className={classes.item} data-test-id={`filter-conditions-${property.name}`} data-name={property.name}>
      <div className={classes.labelRow}>
        <ParameterLabel property={property} />
      </div>
      <Stack gap="xs" className={classes.nested}>
        {filter.conditions.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('filter.noConditions')}
          </Text>
        ) : null}
        {filter.conditions.map((condition, index) => {
          const operator = condition.operator as JsonObject;
          const single = operator.singleValue === true;
          return (
            <Fragment key={typeof condition.id === 'string' ? condition.id : index}>
              {index > 0 ? (
                <Select
                  size="xs"
                  w={90}
                  data={combinatorData}
                  value={filter.combinator}
                  allowDeselect={false}
                  disabled={readOnly}
                  aria-label={t('filter.combinator')}
                  onChange={(next) => save({ ...filter, combinator: next === 'or' ? 'or' : 'and' })}
                  data-test-id="filter-combinator"
                />
              ) : null}
              <ItemActions
                deleteLabel={t('filter.removeCondition')}
                onDelete={readOnly ? undefined : () => save({ ...filter, conditions: filter.conditions.filter((_, i) => i !== index) })}
              >
                <div className={classes.conditionRow} data-test-id="filter-condition">
                  <RowInput
                    label={t('filter.leftValue')}
                    className={classes.fullRow}
                    value={condition.leftValue}
                    disabled={readOnly}
                    onText={(leftValue) => setCondition(index, { ...condition, leftValue })}
                    testId="filter-left-value"
                  />
                  <Select
                    size="xs"
                    className={single ? classes.fullRow : classes.conditionCell}
                    data={operatorData}
                    value={operatorKey({ type: valueText(operator.type), operation: valueText(operator.operation) })}
                    allowDeselect={false}
                    searchable
                    disabled={readOnly}
                    aria-label={t('filter.operator')}
                    comboboxProps={{ width: 240, position: 'bottom-start' }}
                    onChange={(key) => {
                      const next = key ? operatorFromKey(key) : undefined;
                      if (next) setCondition(index, withOperator(condition, next));
                    }}
                    data-test-id="filter-operator"
                  />
                  {single ? null : (
                    <RowInput
                      label={t('filter.rightValue')}
                      className={classes.conditionCell}
                      value={condition.rightValue}
                      disabled={readOnly}
                      onText={(input) => setCondition(index, { ...condition, rightValue: rightValueFromInput(input, operator) })}
                      testId="filter-right-value"
                    />
                  )}
                </div>
              </ItemActions>
            </Fragment>
          );
        })}
        {readOnly ? null : (
          <AddMenu
            label={typeof property.placeholder === 'string' && property.placeholder !== '' ? property.placeholder : t('filter.addCondition')}
            choices={[{ value: 'condition', label: t('filter.addCondition') }]}
            onPick={() => save({ ...filter, conditions: [...filter.conditions, newCondition()], options: { ...filter.options } })}
            testId="filter-add-condition"
          />
        )}
      </Stack>
    </div>
  );
}
