import { Checkbox, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { orderCategories, visibleCategories } from '@/core/templates/search';
import type { TemplateCategory } from '@/core/templates/types';
import classes from './templates.module.css';

interface CategoryFilterProps {
  categories: readonly TemplateCategory[] | undefined;
  selected: readonly number[];
  /** The categories the page opened with: they are listed first. */
  preselected: readonly number[];
  onToggle: (id: number | null) => void;
}

/** The category filter: All, then 12 categories and a '+ N more' expander (spec 000 §2). */
export function CategoryFilter({ categories, selected, preselected, onToggle }: CategoryFilterProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const ordered = useMemo(() => orderCategories(categories ?? [], preselected), [categories, preselected]);
  const { shown, more } = visibleCategories(ordered, expanded);
  return (
    <Stack gap={10} data-test-id="templates-filter">
      <Text fw={600} fz="sm" tt="uppercase" c="dimmed" className={classes.filterHeading}>
        {t('templates.categoriesHeading')}
      </Text>
      {categories === undefined ? (
        Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={16} width={`${60 + ((i * 13) % 30)}%`} />)
      ) : (
        <>
          <Checkbox label={t('templates.allCategories')} checked={selected.length === 0} onChange={() => onToggle(null)} data-test-id="category-all" />
          {shown.map((category) => (
            <Checkbox
              key={category.id}
              label={category.name}
              checked={selected.includes(category.id)}
              onChange={() => onToggle(category.id)}
              data-test-id="category-option"
              data-category-id={category.id}
            />
          ))}
          {more > 0 ? (
            <UnstyledButton className={classes.moreCategories} onClick={() => setExpanded(true)} data-test-id="category-more">
              {t('templates.moreCategories', { count: more })}
            </UnstyledButton>
          ) : null}
        </>
      )}
    </Stack>
  );
}
