import { Badge, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePromptAnswers } from '@/api/prompts';
import { formatDateTime, timeAgo } from '@/core/timeAgo';

/** The answers the built-in prompts host kept, for the owner (newest first). */
export function PromptAnswers() {
  const { t } = useTranslation();
  const { data: answers, error } = usePromptAnswers(true);
  return (
    <Stack gap="xs" mt="xl" data-test-id="prompt-answers">
      <Title order={3} fz="h5">
        {t('promptAnswers.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('promptAnswers.description')}
      </Text>
      {error ? (
        <Text size="sm" c="red">
          {error instanceof Error ? error.message : String(error)}
        </Text>
      ) : null}
      {answers && answers.length === 0 ? (
        <Text size="sm" c="dimmed" data-test-id="prompt-answers-empty">
          {t('promptAnswers.empty')}
        </Text>
      ) : null}
      {answers && answers.length > 0 ? (
        <Paper withBorder radius="lg">
          <Table verticalSpacing={8} horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('promptAnswers.user')}</Table.Th>
                <Table.Th>{t('promptAnswers.kind')}</Table.Th>
                <Table.Th>{t('promptAnswers.answer')}</Table.Th>
                <Table.Th>{t('promptAnswers.when')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {answers.map((answer) => (
                <Table.Tr key={answer.id} data-test-id="prompt-answer-row" data-kind={answer.kind}>
                  <Table.Td>
                    <Text size="sm">{answer.userEmail}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={answer.kind === 'contact' ? 'blue' : 'grape'}>
                      {t(`promptAnswers.kind.${answer.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-test-id="prompt-answer-text">
                      {[answer.value !== undefined ? t('promptAnswers.score', { value: answer.value }) : '', answer.email].filter((part) => part !== '').join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={formatDateTime(answer.createdAt)} withArrow>
                      <Text size="sm" c="dimmed" span>
                        {timeAgo(answer.createdAt)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ) : null}
    </Stack>
  );
}
