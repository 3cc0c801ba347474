/**
 * Users: operators manage everyone (and create merchant users), a merchant-admin their merchant's
 * users (admins and viewers). Generated passwords are shown once.
 */
import { useState } from 'preact/hooks';
import { get, post, query, seg } from '../api';
import { ActionButton, SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Field, Select } from '../components/Field';
import { Page, Section } from '../components/Page';
import { ShownOnce } from '../components/ShownOnce';
import { onSubmit, useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { currentMerchant } from '../state/merchant';
import { isOperator, user } from '../state/session';
import type { User } from '../types';

function CreateUser({ created }: { created: () => void }) {
  const operator = isOperator.value;
  const [username, setUsername] = useState('');
  const [role, setRole] = useState('merchant-viewer');
  const [merchantId, setMerchantId] = useState(operator ? (currentMerchant.value ?? '') : '');
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      setShown(undefined);
      const answer = await post<{ user: User; password?: string }>('/users', {
        username: username.trim(),
        role,
        ...(operator && role !== 'operator' ? { merchantId: merchantId.trim() } : {}),
        ...(password === '' ? {} : { password }),
      });
      if (answer.password !== undefined) setShown(answer.password);
      setUsername('');
      setPassword('');
      created();
      return `User ${answer.user.username} created.`;
    }),
  );
  const roles: [string, string][] = [
    ['merchant-viewer', 'Merchant viewer (read only)'],
    ['merchant-admin', 'Merchant admin'],
  ];
  if (operator) roles.push(['operator', 'Operator']);
  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="New user's username"
        value={username}
        onValue={setUsername}
        error={action.field('username')}
      />
      <Select label="Role" value={role} onValue={setRole} options={roles} error={action.field('role')} />
      {operator && role !== 'operator' && (
        <Field
          label="Merchant id"
          value={merchantId}
          onValue={setMerchantId}
          error={action.field('merchantId')}
        />
      )}
      <Field
        label="Initial password"
        type="password"
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        hint="At least 12 characters; empty: the gateway makes one up and shows it once"
        error={action.field('password')}
      />
      <ActionMessages action={action} />
      {shown !== undefined && <ShownOnce label="Initial password" secret={shown} />}
      <SubmitButton action={action}>Create user</SubmitButton>
    </form>
  );
}

function UserRow({ u, changed, act }: { u: User; changed: () => void; act: ReturnType<typeof useAction> }) {
  const self = u.id === user.value?.id;
  const [reset, setReset] = useState<string | undefined>(undefined);
  return (
    <tr>
      <td>{u.username}</td>
      <td>{u.role}</td>
      <td>{u.merchantId ? <code>{u.merchantId}</code> : '—'}</td>
      <td>{u.totpEnabled ? 'Yes' : 'No'}</td>
      <td>{u.disabled ? 'Disabled' : 'Active'}</td>
      <td>{formatDate(u.createdAt)}</td>
      <td>
        {!self && !u.disabled && (
          <>
            <ActionButton
              action={act}
              class="secondary"
              label={`Reset the password of ${u.username}`}
              confirm={`${u.username}'s password is replaced by a new one, shown once, and their sessions end.`}
              work={async () => {
                const answer = await post<{ password: string }>(`/users/${seg(u.id)}/reset-password`);
                setReset(answer.password);
                return undefined;
              }}
            >
              Reset password
            </ActionButton>{' '}
            <ActionButton
              action={act}
              class="secondary"
              label={`Unlock ${u.username}`}
              confirm={`${u.username} may sign in again with their password at once: the lock that ten failed sign-ins set is lifted.`}
              work={async () => {
                // lifts the lock of ten failed sign-ins; the password stays
                await post(`/users/${seg(u.id)}/unlock`);
                return `${u.username} may sign in again.`;
              }}
            >
              Unlock
            </ActionButton>{' '}
            <ActionButton
              action={act}
              class="danger"
              label={`Disable ${u.username}`}
              confirm={`${u.username} can no longer sign in, and their sessions end.`}
              work={async () => {
                await post(`/users/${seg(u.id)}/disable`);
                changed();
                return `${u.username} was disabled.`;
              }}
            >
              Disable
            </ActionButton>
          </>
        )}
        {reset !== undefined && <ShownOnce label={`New password of ${u.username}`} secret={reset} />}
      </td>
    </tr>
  );
}

export function Users() {
  const [merchantFilter, setMerchantFilter] = useState('');
  const users = useLoad(
    () =>
      get<{ users: User[] }>(
        `/users${query({ merchantId: isOperator.value ? merchantFilter.trim() : undefined })}`,
      ),
    [merchantFilter],
  );
  const act = useAction();
  return (
    <Page title="Users">
      {isOperator.value && (
        <Field
          label="Only the users of merchant"
          value={merchantFilter}
          onValue={setMerchantFilter}
          hint="A merchant id; empty: everyone"
        />
      )}
      <Loading data={users.data} error={users.error} />
      {users.data && (
        <DataTable
          label="Users"
          columns={['Username', 'Role', 'Merchant', 'TOTP', 'State', 'Created', 'Actions']}
        >
          {users.data.users.map((u) => (
            <UserRow key={u.id} u={u} changed={users.reload} act={act} />
          ))}
        </DataTable>
      )}
      <ActionMessages action={act} />
      <Section title="Create a user">
        <CreateUser created={users.reload} />
      </Section>
    </Page>
  );
}
