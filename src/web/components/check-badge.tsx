import { Badge, Tooltip } from '@mantine/core';
import type { CheckResult } from '../../contract/readiness.ts';
import {
  READINESS_CHECK_LABELS,
  type ReadinessCheck,
  type ReadinessState,
} from '../../contract/readiness-constants.ts';

export const STATE_WORDS: Record<ReadinessState, string> = { green: 'Ready', amber: 'To do', red: 'Problem' };
const COLORS: Record<ReadinessState, string> = { green: 'green', amber: 'yellow', red: 'red' };
/** text dark enough on the light fills (and on white) for AA contrast */
export const STATE_TEXT: Record<ReadinessState, string> = { green: '#1d5b2c', amber: '#6b4400', red: '#a51d1d' };

/** One check's state as a badge; the reason on hover and on focus, and in its accessible name. */
export function CheckBadge({ check, result }: { check: ReadinessCheck; result: CheckResult }) {
  return (
    <Tooltip
      label={result.reason}
      multiline
      w={280}
      withArrow
      openDelay={150}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Badge
        color={COLORS[result.state]}
        variant="light"
        tabIndex={0}
        role="img"
        aria-label={`${READINESS_CHECK_LABELS[check]}: ${STATE_WORDS[result.state]}. ${result.reason}`}
        data-state={result.state}
        styles={{ root: { cursor: 'help', color: STATE_TEXT[result.state] } }}
      >
        {STATE_WORDS[result.state]}
      </Badge>
    </Tooltip>
  );
}
