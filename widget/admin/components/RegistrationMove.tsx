/**
 * An operator moves saved cards to another of their channel's routes (POST …/registrations/moves,
 * server/backoffice/registrations/move.ts): one card (`id`), or every one of the merchant's that
 * can. Asked first (ConfirmDialog) with the route chosen inside it and what each channel's route
 * is; the answer, and a refusal, in words (refusals.ts). Routes are numbered from 1, as the
 * channel's page lists them; nothing is offered where no channel has a route.
 */
import { useState } from 'preact/hooks';
import { ApiError, post, seg } from '../api';
import { movedInWords, moveRefusal, type RegistrationMoves } from '../refusals';
import type { Channel } from '../types';
import { connectorInWords } from './ChannelFacts';
import { ConfirmDialog } from './ConfirmDialog';
import { Select } from './Field';
import type { Action } from './useAction';

async function move(merchantId: string, id: string | undefined, route: number): Promise<string> {
  try {
    const body = id ? { registrationIds: [id], route } : { all: true, route };
    const answer = await post<RegistrationMoves>(`/merchants/${seg(merchantId)}/registrations/moves`, body);
    return movedInWords(answer, route);
  } catch (caught) {
    const sentence = id && caught instanceof ApiError && moveRefusal(caught.field('route'), id, route);
    // the sentence says the gateway's reason, renumbered: not listed again under its field
    throw sentence ? new ApiError(caught.status, sentence, [], caught.body) : caught;
  }
}

export function MoveTo(props: {
  merchantId: string;
  /** The saved card; undefined: all of the merchant's. */
  id?: string;
  channels: readonly Channel[];
  action: Action;
}) {
  const { id } = props;
  const [place, setPlace] = useState('0');
  const routed = props.channels.filter((c) => c.routes?.length);
  const count = Math.max(0, ...routed.map((c) => c.routes?.length ?? 0));
  if (count === 0) return null;
  const route = +place;
  return (
    <ConfirmDialog
      label={id ? 'Move to route' : 'Move all saved cards to route'}
      {...(id ? { triggerLabel: `Move to route: saved card ${id}` } : {})}
      action={props.action}
      confirm="Move"
      work={() => move(props.merchantId, id, route)}
    >
      <Select
        label="Route"
        value={place}
        onValue={setPlace}
        options={Array.from({ length: count }, (_, i) => [String(i), `Route ${i + 1}`] as const)}
      />
      <p>
        {id ? `Saved card ${id}` : 'Every active saved card that can'} moves to route {route + 1} of its
        channel, which charges its repeats as a card on file; the shopper is asked nothing:
      </p>
      <ul>
        {routed.map((c) => {
          const r = c.routes?.[route];
          return (
            <li key={c.entityId}>
              {c.name}: {r ? connectorInWords(r.connector) : `no route ${route + 1}, its cards stay`}
            </li>
          );
        })}
      </ul>
    </ConfirmDialog>
  );
}
