import { Badge } from '@mantine/core';

// text and background pairs chosen for WCAG AA contrast at badge size (Mantine's light variant is below it)
export const TONES = {
  good: { background: '#e3f5e6', color: '#1d5a2a' },
  warn: { background: '#fff1db', color: '#7a4100' },
  bad: { background: '#fde7e7', color: '#8f1d1d' },
  neutral: { background: '#eceff3', color: '#343a40' },
  info: { background: '#e4efff', color: '#144a8a' },
} as const;

const STATUS_TONE: Record<string, keyof typeof TONES> = {
  open: 'good',
  confirmed: 'good',
  paid: 'good',
  provisional: 'warn',
  full: 'info',
  'part paid': 'warn',
  closed: 'neutral',
  unpaid: 'neutral',
  cancelled: 'bad',
  overdue: 'bad',
};

export type Tone = keyof typeof TONES;

/** A badge in one of the checked colour pairs. */
export function ToneBadge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  const t = TONES[tone];
  return (
    <Badge radius="sm" styles={{ root: { background: t.background, color: t.color } }}>
      {children}
    </Badge>
  );
}

/** A status word in a badge whose colours say what kind of state it is. */
export function StatusBadge({ status }: { status: string }) {
  return <ToneBadge tone={STATUS_TONE[status.toLowerCase()] ?? 'neutral'}>{status}</ToneBadge>;
}
