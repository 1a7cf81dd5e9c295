import { ActionIcon, Group, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carouselEnds, carouselStep, SKELETON_CARDS } from '@/core/templates/search';
import type { CollectionSummary } from '@/core/templates/types';
import { CollectionCard, CollectionCardSkeleton } from './CollectionCard';
import classes from './templates.module.css';

/** The gap between carousel cards, in px (in templates.module.css too). */
const GAP = 16;

/**
 * The collections carousel (spec 000 §2, §9): four cards in view (240 px wide, narrower only when
 * four would not fit), arrows that scroll by two cards and are off at either end (within 7 px).
 */
export function CollectionsCarousel({ collections, loading }: { collections: readonly CollectionSummary[]; loading: boolean }) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const [ends, setEnds] = useState({ atStart: true, atEnd: true });

  const measure = useCallback(() => {
    const el = track.current;
    if (el) setEnds(carouselEnds(el.scrollLeft, el.scrollWidth, el.clientWidth));
  }, []);
  useEffect(() => {
    measure();
    const el = track.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure, collections, loading]);

  // Where a scroll under way is heading: a second click while it moves goes on from there.
  const target = useRef<number | null>(null);
  const scroll = (direction: 1 | -1) => {
    const el = track.current;
    if (!el) return;
    const card = el.firstElementChild;
    const step = carouselStep(GAP, card instanceof HTMLElement ? card.offsetWidth : undefined);
    const to = Math.max(0, Math.min((target.current ?? el.scrollLeft) + direction * step, el.scrollWidth - el.clientWidth));
    target.current = to;
    el.scrollTo({ left: to, behavior: 'smooth' });
  };
  const onScroll = () => {
    const el = track.current;
    if (el && target.current !== null && Math.abs(el.scrollLeft - target.current) < 1) target.current = null;
    measure();
  };

  if (!loading && collections.length === 0) return null;
  return (
    <section className={classes.carouselSection} data-test-id="collections-carousel">
      <Group justify="space-between" mb="sm" className={classes.carouselHeader}>
        <Group gap={8} align="baseline">
          <Title order={2} size="h4">
            {t('templates.collections')}
          </Title>
          {!loading ? (
            <Text c="dimmed" fz="sm" data-test-id="collections-count">
              {collections.length}
            </Text>
          ) : null}
        </Group>
        {!ends.atStart || !ends.atEnd ? (
          <Group gap={6}>
            <ActionIcon variant="default" radius="xl" size="md" aria-label={t('templates.scrollLeft')} data-test-id="carousel-left" disabled={ends.atStart} onClick={() => scroll(-1)}>
              <IconChevronLeft size={16} />
            </ActionIcon>
            <ActionIcon variant="default" radius="xl" size="md" aria-label={t('templates.scrollRight')} data-test-id="carousel-right" disabled={ends.atEnd} onClick={() => scroll(1)}>
              <IconChevronRight size={16} />
            </ActionIcon>
          </Group>
        ) : null}
      </Group>
      <div className={classes.carousel}>
        <div className={classes.carouselTrack} ref={track} onScroll={onScroll} data-test-id="carousel-track">
          {loading ? Array.from({ length: SKELETON_CARDS }, (_, i) => <CollectionCardSkeleton key={i} />) : collections.map((c) => <CollectionCard key={c.id} collection={c} />)}
        </div>
      </div>
    </section>
  );
}
