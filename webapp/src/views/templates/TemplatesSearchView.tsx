import { Button, CloseButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigationType } from 'react-router';
import { useTemplateCategories, useTemplateCollections, useTemplateWorkflowPages } from '@/api/templates';
import { isFinished, SKELETON_CARDS } from '@/core/templates/search';
import { showToast } from '@/components/toast';
import { CategoryFilter } from './CategoryFilter';
import { CollectionsCarousel } from './CollectionsCarousel';
import { TemplateCard, TemplateCardSkeleton } from './TemplateCard';
import { templatesSession } from './templatesSession';
import { useTemplatesEndpoint } from './useTemplatesEndpoint';
import { useTemplatesSearchState } from './useTemplatesSearchState';
import classes from './templates.module.css';

/** The template search page (spec 000 §2): filter, search, collections, an endless list. */
export function TemplatesSearchView() {
  const { t } = useTranslation();
  const { endpoint, healthy } = useTemplatesEndpoint();
  const { query, text, setText, clearText, toggle, preselected } = useTemplatesSearchState();
  // Coming from outside the library starts a new session of it; Back, or a link from a template
  // page, returns to the one the list was left in (see templatesSession).
  const navigationType = useNavigationType();
  const location = useLocation();
  const keepSession = navigationType === 'POP' || (location.state as { templatesSession?: boolean } | null)?.templatesSession === true;
  const [session] = useState(() => (keepSession ? templatesSession.current() : templatesSession.renew()));

  const categories = useTemplateCategories(endpoint);
  const collections = useTemplateCollections(endpoint, query, session);
  const pages = useTemplateWorkflowPages(endpoint, query, session);
  const { data, size, setSize, isLoading, isValidating, error } = pages;

  const loaded = data?.flatMap((page) => page.workflows) ?? [];
  const total = data?.[0]?.totalWorkflows;
  const finished = isFinished(loaded.length, total);
  const loadingMore = isValidating && data !== undefined && size > data.length;
  const failedFirst = error !== undefined && data === undefined;
  const connectionProblem = (failedFirst || categories.error !== undefined) && healthy !== true;

  // More pages as the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || finished || data === undefined || error !== undefined) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isValidating) void setSize(data.length + 1);
    }, { rootMargin: '200px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [finished, data, error, isValidating, setSize]);

  // A later page that fails says so once; the pages already shown stay.
  const toldError = useRef<unknown>(null);
  useEffect(() => {
    if (error !== undefined && data !== undefined && toldError.current !== error) {
      toldError.current = error;
      showToast({ type: 'error', title: t('templates.loadMoreError'), message: error instanceof Error ? error.message : String(error) });
    }
  }, [error, data, t]);

  // The list scrolls to the top when a search has no results.
  const top = useRef<HTMLDivElement>(null);
  const empty = total === 0;
  useEffect(() => {
    if (empty) top.current?.scrollIntoView({ block: 'start' });
  }, [empty]);

  const showSkeleton = isLoading || (data === undefined && !failedFirst);

  return (
    <div className={classes.page} ref={top} data-test-id="templates-search-view">
      <Group justify="space-between" align="center" className={classes.header}>
        <Title order={1} size="h2">
          {t('templates.heading')}
        </Title>
        <Button component={Link} to="/workflow" state={{ newToast: false }} leftSection={<IconPlus size={16} />} variant="default" data-test-id="new-workflow-button">
          {t('templates.newButton')}
        </Button>
      </Group>
      <div className={classes.searchLayout}>
        <aside className={classes.filters}>
          {connectionProblem ? null : <CategoryFilter categories={categories.data?.categories} selected={query.categories} preselected={preselected} onToggle={toggle} />}
        </aside>
        <Stack gap="xl" className={classes.results}>
          <TextInput
            size="md"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            placeholder={t('templates.searchPlaceholder')}
            leftSection={<IconSearch size={18} />}
            rightSectionPointerEvents="all"
            rightSection={text !== '' ? <CloseButton aria-label={t('templates.clearSearch')} onClick={clearText} data-test-id="templates-search-clear" /> : null}
            aria-label={t('templates.searchPlaceholder')}
            data-test-id="templates-search-input"
          />
          {connectionProblem ? (
            <Text className={classes.endMessage} data-test-id="templates-connection-warning">
              {t('templates.connectionWarning')}
            </Text>
          ) : (
            <>
              <CollectionsCarousel collections={collections.data?.collections ?? []} loading={collections.data === undefined && collections.error === undefined} />
              <section data-test-id="templates-list">
                <Group gap={8} align="baseline" mb="sm">
                  <Title order={2} size="h4">
                    {t('templates.workflows')}
                  </Title>
                  {total !== undefined ? (
                    <Text c="dimmed" fz="sm" data-test-id="templates-total">
                      {total}
                    </Text>
                  ) : null}
                </Group>
                <div className={classes.list}>
                  {loaded.map((template) => (
                    <TemplateCard key={template.id} template={template} />
                  ))}
                  {showSkeleton || loadingMore ? Array.from({ length: SKELETON_CARDS }, (_, i) => <TemplateCardSkeleton key={`s${i}`} />) : null}
                </div>
                <div ref={sentinel} />
                {empty ? (
                  <Text className={classes.endMessage} data-test-id="templates-no-results">
                    {t('templates.noSearchResults')}
                  </Text>
                ) : finished ? (
                  <Text className={classes.endMessage} data-test-id="templates-end">
                    {t('templates.endResult')}
                  </Text>
                ) : null}
              </section>
            </>
          )}
        </Stack>
      </div>
    </div>
  );
}
