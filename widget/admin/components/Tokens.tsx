/** A merchant's access tokens: the list with last use, and for admins create (shown once) and revoke. */
import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../api';
import { formatDate, listOf } from '../format';
import { canChange } from '../state/session';
import type { AccessToken } from '../types';
import { ActionButton, SubmitButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { Loading } from './Alert';
import { DataTable } from './DataTable';
import { Field, Select } from './Field';
import { ShownOnce } from './ShownOnce';
import { onSubmit, useAction } from './useAction';
import { useLoad } from './useLoad';

function CreateToken({ merchantId, created }: { merchantId: string; created: () => void }) {
  const [environment, setEnvironment] = useState('test');
  const [channels, setChannels] = useState('');
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      const list = listOf(channels);
      const answer = await post<AccessToken & { accessToken: string }>(
        `/merchants/${seg(merchantId)}/tokens`,
        {
          environment,
          ...(list.length > 0 ? { channels: list } : {}),
        },
      );
      setSecret(answer.accessToken);
      created();
      return `Access token ${answer.id} created.`;
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Select
        label="Environment"
        value={environment}
        onValue={setEnvironment}
        options={[
          ['test', 'Test'],
          ['live', 'Live'],
        ]}
        error={action.field('environment')}
      />
      <Field
        label="Channels (entityIds)"
        value={channels}
        onValue={setChannels}
        hint="Separated by spaces; empty: every channel of the merchant in that environment"
        error={action.field('channels')}
      />
      <ActionMessages action={action} />
      {secret !== undefined && <ShownOnce label="New access token" secret={secret} />}
      <SubmitButton action={action}>Create access token</SubmitButton>
    </form>
  );
}

export function Tokens({ merchantId }: { merchantId: string }) {
  const tokens = useLoad(
    () => get<{ tokens: AccessToken[] }>(`/merchants/${seg(merchantId)}/tokens`),
    [merchantId],
  );
  const revoke = useAction();
  return (
    <>
      <Loading data={tokens.data} error={tokens.error} />
      {tokens.data && tokens.data.tokens.length === 0 && <p class="muted">No access tokens.</p>}
      {tokens.data && tokens.data.tokens.length > 0 && (
        <DataTable
          label="Access tokens"
          columns={['Id', 'Environment', 'Channels', 'Created', 'Last used', 'State']}
        >
          {tokens.data.tokens.map((t) => (
            <tr key={t.id}>
              <td>
                <code>{t.id}</code>
              </td>
              <td>{t.environment}</td>
              <td>{t.channels === null || t.channels.length === 0 ? 'All' : t.channels.join(', ')}</td>
              <td>{formatDate(t.createdAt)}</td>
              <td>{t.lastUsedAt === null ? 'Never' : formatDate(t.lastUsedAt)}</td>
              <td>
                {t.revokedAt !== null ? (
                  `Revoked ${formatDate(t.revokedAt)}`
                ) : canChange.value ? (
                  <ActionButton
                    action={revoke}
                    class="danger"
                    label={`Revoke token ${t.id}`}
                    confirm={`Token ${t.id} stops working at once: every request made with it is refused. This cannot be undone.`}
                    work={async () => {
                      await del(`/merchants/${seg(merchantId)}/tokens/${seg(t.id)}`);
                      tokens.reload();
                      return `Token ${t.id} revoked.`;
                    }}
                  >
                    Revoke
                  </ActionButton>
                ) : (
                  'Active'
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ActionMessages action={revoke} />
      {canChange.value && (
        <>
          <h3>Create an access token</h3>
          <CreateToken merchantId={merchantId} created={tokens.reload} />
        </>
      )}
    </>
  );
}
