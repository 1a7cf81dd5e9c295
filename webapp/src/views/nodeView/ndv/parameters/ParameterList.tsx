import { isParameterShown } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { AssignmentCollectionParameter } from './AssignmentCollectionParameter';
import { CollectionParameter } from './CollectionParameter';
import { FilterConditionsParameter } from './FilterConditionsParameter';
import { FixedCollectionParameter } from './FixedCollectionParameter';
import { ItemActions } from './ItemActions';
import { NoticeParameter } from './NoticeParameter';
import { ParameterItem } from './ParameterItem';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

function ParameterEntry({ property, value, path }: { property: NodeProperty; value: JsonValue | undefined; path: string }) {
  if (property.type === 'notice') return <NoticeParameter property={property} />;
  if (property.type === 'collection' && property.typeOptions?.multipleValues !== true) return <CollectionParameter property={property} value={value} path={path} labelled />;
  if (property.type === 'fixedCollection') return <FixedCollectionParameter property={property} value={value} path={path} />;
  if (property.type === 'filter') return <FilterConditionsParameter property={property} value={value} path={path} />;
  if (property.type === 'assignmentCollection') return <AssignmentCollectionParameter property={property} value={value} path={path} />;
  return <ParameterItem property={property} value={value} path={path} />;
}

/**
 * The shown parameters of one level. `values` are the level's values with defaults and `path`
 * the level's path on the node (`parameters`, `parameters.options`,
 * `parameters.values.string[0]`). With `onDelete` each parameter gets a delete button
 * (collection options).
 */
export function ParameterList({
  properties,
  values,
  path,
  onDelete,
}: {
  properties: readonly NodeProperty[];
  values: Readonly<Record<string, JsonValue | undefined>>;
  path: string;
  onDelete?: (name: string) => void;
}) {
  const { root, node, readOnly } = useParameters();
  const shown = properties.filter((property) => isParameterShown(property, { values, root, version: node.typeVersion }));
  return (
    <div className={classes.list}>
      {shown.map((property, index) => (
        <ItemActions key={`${property.name}-${index}`} onDelete={onDelete && !readOnly ? () => onDelete(property.name) : undefined}>
          <ParameterEntry property={property} value={values[property.name]} path={path === '' ? property.name : `${path}.${property.name}`} />
        </ItemActions>
      ))}
    </div>
  );
}
