import { Anchor, CloseButton, SegmentedControl, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { NodeIcon } from '@/components/NodeIcon';
import {
  CREATOR_TABS,
  NO_RESULTS_SUGGESTIONS,
  categoryTree,
  initialExpanded,
  searchResults,
  type CreatorItem,
  type CreatorTab,
} from '@/core/editor/nodeCreator';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { NODE_TYPE_DRAG_FORMAT } from '@/views/nodeView/canvas/Canvas';
import { useEditor } from '@/views/nodeView/EditorContext';
import classes from './creator.module.css';

interface NodeCreatorProps {
  onSelect: (type: NodeTypeDescription) => void;
  onClose: () => void;
}

/** The slide-in node picker (spec 001 §2): search, tabs, categories, keyboard navigation. */
export function NodeCreator({ onSelect, onClose }: NodeCreatorProps) {
  const { t } = useTranslation();
  const { types, index } = useEditor();
  const { settings } = useSettings();
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<CreatorTab>('All');
  const [expanded, setExpanded] = useState<Set<string>>(() => initialExpanded(types, 'All'));
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);

  const items: CreatorItem[] = useMemo(() => {
    if (search.trim() !== '') {
      return searchResults(types, tab, search).map((nodeType) => ({ type: 'node' as const, key: nodeType.name, category: '', nodeType }));
    }
    return categoryTree(types, tab, expanded);
  }, [types, tab, search, expanded]);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const toggle = (key: string, open?: boolean) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(key)) next.add(key);
      else next.delete(key);
      return next;
    });
  };

  const choose = (item: CreatorItem | undefined) => {
    if (!item) return;
    if (item.type === 'node') onSelect(item.nodeType);
    else toggle(item.key);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const item = items[active];
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setActive((i) => Math.min(items.length - 1, i + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        break;
      case 'ArrowRight':
        if (item && item.type !== 'node') {
          event.preventDefault();
          toggle(item.key, true);
        }
        break;
      case 'ArrowLeft':
        if (item && item.type !== 'node') {
          event.preventDefault();
          toggle(item.key, false);
        }
        break;
      case 'Enter':
        event.preventDefault();
        choose(item);
        break;
      case 'Escape':
      case 'Tab':
        event.preventDefault();
        onClose();
        break;
    }
  };

  const suggestions = NO_RESULTS_SUGGESTIONS.map((name) => index.get(name)).filter((type): type is NodeTypeDescription => type !== undefined);

  return (
    <aside className={classes.panel} data-test-id="node-creator" aria-label={t('nodeCreator.title')} onKeyDown={onKeyDown}>
      <div className={classes.header}>
        <Text fw={700} size="lg">
          {t('nodeCreator.title')}
        </Text>
        <CloseButton aria-label={t('nodeCreator.close')} onClick={onClose} data-test-id="node-creator-close" />
      </div>
      <TextInput
        className={classes.search}
        data-test-id="node-creator-search-bar"
        placeholder={t('nodeCreator.searchPlaceholder')}
        aria-label={t('nodeCreator.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={search}
        autoFocus
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setActive(0);
        }}
        rightSection={search !== '' ? <CloseButton size="sm" aria-label={t('nodeCreator.clearSearch')} onClick={() => { setSearch(''); setActive(0); }} /> : null}
      />
      <SegmentedControl
        className={classes.tabs}
        fullWidth
        size="xs"
        value={tab}
        onChange={(value) => {
          setTab(value as CreatorTab);
          setActive(0);
        }}
        data={CREATOR_TABS.map((value) => ({ value, label: t(`nodeCreator.tab.${value}`) }))}
        data-test-id="node-creator-tabs"
      />
      <div className={classes.list} ref={listRef} role="listbox" aria-label={t('nodeCreator.title')}>
        {items.length === 0 ? (
          <div className={classes.noResults} data-test-id="node-creator-no-results">
            <Text fw={600}>{t('nodeCreator.noResults.title')}</Text>
            <Text size="sm" c="dimmed" mb="sm">
              {t('nodeCreator.noResults.message')}
            </Text>
            {suggestions.map((type) => (
              <NodeRow key={type.name} type={type} active={false} onClick={() => onSelect(type)} />
            ))}
            {settings.issuesUrl ? (
              <Anchor href={settings.issuesUrl} target="_blank" rel="noreferrer" size="sm" mt="sm" display="block" data-test-id="node-creator-request">
                {t('nodeCreator.noResults.request')}
              </Anchor>
            ) : null}
          </div>
        ) : (
          items.map((item, i) =>
            item.type === 'node' ? (
              <NodeRow key={item.key} type={item.nodeType} active={i === active} index={i} indent={item.subcategory ? 2 : item.category ? 1 : 0} onClick={() => onSelect(item.nodeType)} onHover={() => setActive(i)} />
            ) : (
              <UnstyledButton
                key={item.key}
                className={item.type === 'category' ? classes.category : classes.subcategory}
                data-active={i === active || undefined}
                data-index={i}
                data-test-id={item.type === 'category' ? 'node-creator-category' : 'node-creator-subcategory'}
                role="option"
                aria-selected={i === active}
                aria-expanded={item.expanded}
                onClick={() => toggle(item.key)}
                onMouseEnter={() => setActive(i)}
              >
                <span>{item.type === 'category' ? item.category : item.subcategory}</span>
                <span className={classes.count}>
                  {item.count}
                  {item.expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                </span>
              </UnstyledButton>
            ),
          )
        )}
      </div>
    </aside>
  );
}

function NodeRow({ type, active, index, indent = 0, onClick, onHover }: { type: NodeTypeDescription; active: boolean; index?: number; indent?: number; onClick: () => void; onHover?: () => void }) {
  return (
    <UnstyledButton
      className={classes.node}
      style={{ paddingLeft: 14 + indent * 12 }}
      data-active={active || undefined}
      data-index={index}
      data-test-id="node-creator-item"
      role="option"
      aria-selected={active}
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData(NODE_TYPE_DRAG_FORMAT, type.name);
        event.dataTransfer.effectAllowed = 'copy';
      }}
      onClick={onClick}
      onMouseEnter={onHover}
    >
      <span className={classes.nodeIcon}>
        <NodeIcon type={type} size={26} />
      </span>
      <span className={classes.nodeText}>
        <span className={classes.nodeName} data-test-id="node-creator-item-name">
          {type.displayName}
        </span>
        {type.description ? <span className={classes.nodeDescription}>{type.description}</span> : null}
      </span>
    </UnstyledButton>
  );
}
