import { Grid, NativeSelect, TextInput, type GridColProps } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { roleOptions } from './role-options.ts';

type Field = 'email' | 'first_name' | 'last_name' | 'user_role_id';

const LABELS: Record<Field, string> = {
  email: 'Email',
  first_name: 'First Name',
  last_name: 'Last Name',
  user_role_id: 'Role',
};

type Props = {
  /** the fields in the order shown, each with its column span */
  layout: Array<[Field, GridColProps['span']]>;
  register: (name: Field) => UseFormRegisterReturn;
  errors: Partial<Record<Field, { message?: string }>>;
  /** the role as text that cannot be changed (one's own), in place of the select */
  fixedRole?: string;
  /** the fields shown but not for changing (a team without people change) */
  disabled?: boolean;
};

/** What a user account is (spec §5: email, first name, last name and role, all required): the list's add form and the edit page. */
export function UserFields({ layout, register, errors, fixedRole, disabled }: Props) {
  return layout.map(([field, span]) => (
    <Grid.Col key={field} span={span}>
      {field !== 'user_role_id' ? (
        <TextInput
          label={LABELS[field]}
          type={field === 'email' ? 'email' : undefined}
          required
          disabled={disabled}
          error={errors[field]?.message}
          {...register(field)}
        />
      ) : fixedRole !== undefined ? (
        // one's own role is not for changing here; the value stays in the form as loaded
        <TextInput label={LABELS[field]} readOnly value={fixedRole} description="You cannot change your own role." />
      ) : (
        <NativeSelect
          label={LABELS[field]}
          required
          data={roleOptions}
          disabled={disabled}
          error={errors[field]?.message}
          {...register(field)}
        />
      )}
    </Grid.Col>
  ));
}
