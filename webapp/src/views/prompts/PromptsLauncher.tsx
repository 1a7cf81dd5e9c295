import { useEffect, useRef } from 'react';
import { fetchPrompts } from '@/api/prompts';
import { promptToOpen } from '@/core/prompts/prompts';
import { openModal } from '@/components/modalHost';
import { usePromptsCaller } from './usePromptsCaller';

/**
 * Asks the prompts host once per page load, when prompts are on and a user is signed in (and not
 * busy with the personalization survey), and opens the prompt it names. Renders nothing.
 */
export function PromptsLauncher({ ready }: { ready: boolean }) {
  const caller = usePromptsCaller();
  const asked = useRef(false);
  const enabled = caller?.settings.prompts.enabled === true;
  useEffect(() => {
    if (!ready || !enabled || !caller || asked.current) return;
    asked.current = true;
    void fetchPrompts(caller).then((data) => {
      const name = promptToOpen(data);
      if (name === 'contactPrompt') openModal('contactPrompt', { title: data.title, message: data.message });
      if (name === 'valueSurvey') openModal('valueSurvey', {});
    });
  }, [ready, enabled, caller]);
  return null;
}
