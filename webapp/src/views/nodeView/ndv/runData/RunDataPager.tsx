import { ActionIcon, Button, Group, Select, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, pageCount, pagerEntries, type PageSize } from '@/core/runData/pagination';
import classes from './runData.module.css';

export interface RunDataPagerProps {
  total: number;
  page: number;
  pageSize: PageSize;
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
}

/** Page buttons (at most five, first and last included) and the page size choice. */
export function RunDataPager({ total, page, pageSize, onPage, onPageSize }: RunDataPagerProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  const sizes = [...PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) })), { value: 'all', label: t('runData.pageSize.all') }];
  return (
    <div className={classes.pager} data-test-id="ndv-data-pagination">
      <Group gap={4} wrap="nowrap">
        {pages > 1 ? (
          <>
            <ActionIcon variant="subtle" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('runData.previousPage')}>
              <IconChevronLeft size={14} />
            </ActionIcon>
            {pagerEntries(page, pages).map((entry, index) =>
              entry === 'gap' ? (
                <Text key={`gap${index}`} size="sm" c="dimmed" px={4}>
                  …
                </Text>
              ) : (
                <Button
                  key={entry}
                  size="compact-sm"
                  variant={entry === page ? 'filled' : 'subtle'}
                  color={entry === page ? undefined : 'gray'}
                  onClick={() => onPage(entry)}
                  aria-label={t('runData.page', { page: entry })}
                  aria-current={entry === page ? 'page' : undefined}
                >
                  {entry}
                </Button>
              ),
            )}
            <ActionIcon variant="subtle" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={t('runData.nextPage')}>
              <IconChevronRight size={14} />
            </ActionIcon>
          </>
        ) : null}
      </Group>
      <Group gap="xs" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('runData.pageSize')}
        </Text>
        <Select
          size="xs"
          w={80}
          data={sizes}
          value={String(pageSize)}
          allowDeselect={false}
          onChange={(value) => {
            if (value) onPageSize(value === 'all' ? 'all' : Number(value));
          }}
          aria-label={t('runData.pageSize')}
          data-test-id="ndv-page-size"
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
    </div>
  );
}
