/**
 * A channel's connector as an operator sets it (PATCH /admin/v1/channels/{id} with `connector`):
 * the kind, address and credentials (write-only), confirmed first since it changes where the
 * channel's money goes; once saved, the notification address to give the processor, shown once;
 * removing it (back to the simulator); and "check the connection" (a harmless call with the stored
 * credentials, POST …/connector/check) with what it found in words.
 */
import { useState } from 'preact/hooks';
import type { ConnectorCheck, ConnectorSetupView } from '../../../shared/contract';
import { patch, post, seg } from '../api';
import type { Channel } from '../types';
import { ActionButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { ConnectorFields, type ConnectorInput, connectorBody, emptyConnector } from './ConnectorFields';
import { ShownOnce } from './ShownOnce';
import { useAction } from './useAction';

/** What the check found, in words. */
export function checkInWords(found: ConnectorCheck): string {
  const where = `${found.kind} at ${found.baseUrl}`;
  if (!found.reachable) return `${where} did not answer (${found.detail}).`;
  const credentials = {
    accepted: 'accepted the credentials',
    refused: 'refused the credentials',
    unknown: 'answered, but did not say whether it accepts the credentials',
  }[found.credentials];
  const status = found.status === undefined ? '' : `, HTTP ${found.status}`;
  return `${where} ${credentials} in ${Math.round(found.latencyMs)} ms${status}: ${found.detail}.`;
}

function CheckConnection({ entityId }: { entityId: string }) {
  const action = useAction();
  return (
    <>
      <ActionButton
        action={action}
        class="secondary"
        work={async () => {
          const { connectorCheck } = await post<{ connectorCheck: ConnectorCheck }>(
            `/channels/${seg(entityId)}/connector/check`,
          );
          return checkInWords(connectorCheck);
        }}
      >
        Check the connection
      </ActionButton>
      <ActionMessages action={action} />
    </>
  );
}

export function ConnectorForm({ channel, saved }: { channel: Channel; saved: () => void }) {
  const [input, setInput] = useState<ConnectorInput>(
    emptyConnector((channel.connector as { kind?: 'adyen' | 'stripe' } | null)?.kind ?? 'opp'),
  );
  const [setup, setSetup] = useState<ConnectorSetupView | undefined>(undefined);
  const save = useAction();
  const remove = useAction();
  const path = `/channels/${seg(channel.entityId)}`;
  return (
    <>
      {channel.connector !== null && <CheckConnection entityId={channel.entityId} />}
      <form onSubmit={(e) => e.preventDefault()} noValidate>
        <fieldset>
          <legend>{channel.connector === null ? 'Set a connector' : 'Replace the connector'}</legend>
          <ConnectorFields value={input} onValue={setInput} error={save.field} prefix="connector" />
        </fieldset>
        <ActionMessages action={save} />
        <ActionButton
          action={save}
          confirm="The channel's payments go to this processor with these credentials from now on. The credentials are stored sealed and cannot be read back; the old ones are replaced."
          work={async () => {
            const answer = await patch<Channel & { connectorSetup?: ConnectorSetupView }>(path, {
              connector: connectorBody(input),
            });
            setSetup(answer.connectorSetup);
            setInput(emptyConnector(input.kind));
            saved();
            return 'The connector was saved.';
          }}
        >
          Save connector
        </ActionButton>
      </form>
      {setup && (
        <>
          <ShownOnce
            label="Notification address for the processor"
            secret={setup.notificationUrl ?? setup.notificationPath}
          />
          <p>Signature: {setup.signature}</p>
        </>
      )}
      {channel.connector !== null && (
        <>
          <ActionButton
            action={remove}
            class="danger"
            confirm="The channel's payments go to the gateway's simulator again and the stored credentials are deleted."
            work={async () => {
              await patch(path, { connector: null });
              saved();
              return 'The connector was removed.';
            }}
          >
            Remove connector
          </ActionButton>
          <ActionMessages action={remove} />
        </>
      )}
    </>
  );
}
