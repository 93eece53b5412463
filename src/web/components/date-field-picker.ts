// The calendar of DateField (spec §9), in a chunk of its own: it loads when a date field is first
// focused or clicked, not with the screen.
import '@mantine/dates/styles.css';

export { DateInput } from '@mantine/dates';
