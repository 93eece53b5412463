import { Badge, Group, Text } from '@mantine/core';
import { formatShortDate } from '../../lib/format.ts';

/** A token's or an application's scopes, one badge each (or None). */
export function ScopeBadges({ scopes }: { scopes: string[] }) {
  if (!scopes.length) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {scopes.map((s) => (
        <Badge key={s} variant="light" color="gray" tt="none" radius="sm">
          {s}
        </Badge>
      ))}
    </Group>
  );
}

export function LastUsed({ at }: { at: string | null }) {
  return at ? (
    formatShortDate(at)
  ) : (
    <Text size="sm" c="dimmed">
      Never
    </Text>
  );
}
