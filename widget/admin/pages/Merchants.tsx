/** Every merchant (operators; a merchant user sees only theirs), and for operators: create one. */
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { Field } from '../components/Field';
import { Page, Section } from '../components/Page';
import { onSubmit, useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href } from '../router';
import { isOperator } from '../state/session';
import type { Merchant } from '../types';

function CreateMerchant({ created }: { created: () => void }) {
  const [name, setName] = useState('');
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      const merchant = await post<Merchant>('/merchants', { name: name.trim() });
      setName('');
      created();
      return `Merchant ${merchant.name} created (${merchant.id}).`;
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Field label="Merchant name" value={name} onValue={setName} error={action.field('name')} />
      <ActionMessages action={action} />
      <SubmitButton action={action}>Create merchant</SubmitButton>
    </form>
  );
}

export function Merchants() {
  const list = useLoad(() => get<{ merchants: Merchant[] }>('/merchants'), []);
  return (
    <Page title="Merchants">
      <Loading data={list.data} error={list.error} />
      {list.data && (
        <table>
          <caption class="visually-hidden">Merchants</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data.merchants.map((m) => (
              <tr key={m.id}>
                <td>
                  <a href={href(`/merchants/${encodeURIComponent(m.id)}`)}>{m.name}</a>
                </td>
                <td>
                  <code>{m.id}</code>
                </td>
                <td>{formatDate(m.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {isOperator.value && (
        <Section title="Create a merchant">
          <CreateMerchant created={list.reload} />
        </Section>
      )}
    </Page>
  );
}
